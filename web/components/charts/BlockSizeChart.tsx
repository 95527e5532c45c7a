"use client";

import { useMemo, useState } from "react";
import type { BlockSizeBin } from "@/lib/api-schemas";
import { toBinColumns, type BinColumn } from "@/lib/block-size-bins";
import { formatBytes, formatExact, formatPercent } from "@/lib/format";
import { EChart } from "./EChart";
import { PALETTE, tooltipHtml, type ChartOption } from "./echarts";

type Metric = "ops" | "bytes";
const METRICS: Record<Metric, string> = { ops: "By I/Os (IOPS)", bytes: "By bytes (throughput)" };

/**
 * Block-size distribution (vscsiStats ioLength bins), read and write bars side by side,
 * as a share of all I/Os or of all bytes (a toggle). Tooltips give the absolute counts.
 */
export function BlockSizeChart({ bins }: { bins: BlockSizeBin[] }) {
  const [metric, setMetric] = useState<Metric>("ops");
  const columns = useMemo(() => toBinColumns(bins), [bins]);
  const option = useMemo(() => blockSizeOption(columns, metric), [columns, metric]);
  const nonEmpty = bins.filter((b) => b[metric] > 0).length;

  return (
    <div className="chart-block">
      <div className="toggle" role="group" aria-label="Block-size distribution measure">
        {(Object.keys(METRICS) as Metric[]).map((m) => (
          <button key={m} type="button" aria-pressed={metric === m} onClick={() => setMetric(m)} data-testid={`block-size-${m}`}>
            {METRICS[m]}
          </button>
        ))}
      </div>
      <EChart
        option={option}
        testId="block-size-chart"
        points={bins.length}
        data={{ "data-metric": metric, "data-bins": columns.length }}
        label={`Block-size distribution ${metric === "ops" ? "by I/O count" : "by bytes"}, read and write, over ${columns.length} vscsiStats ioLength bins; ${nonEmpty} of ${bins.length} bars non-zero.`}
      />
    </div>
  );
}

function blockSizeOption(columns: BinColumn[], metric: Metric): ChartOption {
  const total = columns.reduce((sum, c) => sum + c.read[metric] + c.write[metric], 0);
  const series = (["read", "write"] as const).map((direction) => ({
    type: "bar" as const,
    name: direction === "read" ? "Read" : "Write",
    color: PALETTE[direction],
    barMaxWidth: 18,
    data: columns.map((c) => (total > 0 ? c[direction][metric] / total : 0)),
  }));
  const absolute = (n: number) => (metric === "ops" ? `${formatExact(n)} I/Os` : formatBytes(n));
  return {
    animationDuration: 300,
    grid: { left: 56, right: 16, top: 40, bottom: 72 },
    legend: { top: 0, right: 0, data: ["Read", "Write"] },
    tooltip: {
      trigger: "axis",
      axisPointer: { type: "shadow" },
      formatter: (params) => {
        const items = Array.isArray(params) ? params : [params];
        const column = columns[items[0]?.dataIndex ?? 0];
        const lines = (["read", "write"] as const).map(
          (d) => tooltipHtml`${d === "read" ? "Read" : "Write"}: ${absolute(column[d][metric])} (${formatPercent(total > 0 ? column[d][metric] / total : 0)})`,
        );
        return [tooltipHtml`<b>${column.label}</b> <span style="opacity:.7">${column.range}</span>`, ...lines].join("<br/>");
      },
    },
    xAxis: {
      type: "category",
      data: columns.map((c) => c.label),
      name: "I/O size",
      nameLocation: "middle",
      nameGap: 52,
      axisLabel: { rotate: 40 },
      axisTick: { alignWithLabel: true },
    },
    yAxis: {
      type: "value",
      name: metric === "ops" ? "Share of I/Os" : "Share of bytes",
      nameTextStyle: { align: "left" },
      axisLabel: { formatter: (v: number) => formatPercent(v) },
    },
    series,
  };
}
