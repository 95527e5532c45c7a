"use client";

import { useMemo } from "react";
import { formatExact, formatPercent } from "@/lib/format";
import type { VscsiBucket } from "@/lib/vscsi-buckets";
import { DataTable } from "./DataTable";
import { EChart } from "./EChart";
import { tooltipHtml, type ChartOption } from "./echarts";

/** One histogram drawn as bars: a count per bucket (I/Os or commands). */
export interface HistogramSeries {
  name: string;
  counts: number[];
  color: string;
}

interface HistogramChartProps {
  buckets: VscsiBucket[];
  series: HistogramSeries[];
  /** x-axis title with its unit, e.g. "Seek distance (512-byte sectors)". */
  axis: string;
  label: string;
  testId: string;
}

const total = (s: HistogramSeries) => s.counts.reduce((a, b) => a + b, 0);

/**
 * A vscsiStats histogram as bars over its buckets (ECharts, SVG), each series as a share of its own
 * total so histograms of different sizes compare; tooltips and the data-table fallback give the
 * counts. data-buckets: buckets drawn; data-series: "name:total,…".
 */
export function HistogramChart({ buckets, series, axis, label, testId }: HistogramChartProps) {
  const option = useMemo(() => histogramOption(buckets, series, axis), [buckets, series, axis]);
  const cell = (s: HistogramSeries, i: number) => `${formatExact(s.counts[i])} (${formatPercent(s.counts[i] / (total(s) || 1))})`;
  return (
    <figure className="ts-chart">
      <EChart
        option={option}
        label={label}
        testId={testId}
        points={buckets.length}
        height={300}
        data={{ "data-buckets": buckets.length, "data-series": series.map((s) => `${s.name}:${total(s)}`).join(",") }}
      />
      <DataTable
        caption={label}
        columns={["Bucket", "Values", ...series.map((s) => s.name)]}
        rows={buckets.map((b, i) => [b.label, b.range, ...series.map((s) => cell(s, i))])}
      />
    </figure>
  );
}

function histogramOption(buckets: VscsiBucket[], series: HistogramSeries[], axis: string): ChartOption {
  const totals = series.map((s) => total(s) || 1);
  return {
    animationDuration: 300,
    aria: { enabled: true, decal: { show: series.length > 1 } },
    grid: { left: 56, right: 16, top: 36, bottom: 84 },
    legend: { top: 0, data: series.map((s) => s.name) },
    tooltip: {
      trigger: "axis",
      axisPointer: { type: "shadow" },
      formatter: (params) => {
        const i = (Array.isArray(params) ? params[0] : params)?.dataIndex ?? 0;
        const lines = series.map((s, j) => tooltipHtml`${s.name}: ${formatExact(s.counts[i])} (${formatPercent(s.counts[i] / totals[j])})`);
        return [tooltipHtml`<b>${buckets[i].range}</b>`, ...lines].join("<br/>");
      },
    },
    xAxis: {
      type: "category",
      data: buckets.map((b) => b.label),
      name: axis,
      nameLocation: "middle",
      nameGap: 64,
      axisLabel: { rotate: 45 },
      axisTick: { alignWithLabel: true },
    },
    yAxis: { type: "value", min: 0, axisLabel: { formatter: (v: number) => formatPercent(v) } },
    series: series.map((s, j) => ({
      type: "bar" as const,
      name: s.name,
      color: s.color,
      barMaxWidth: 18,
      data: s.counts.map((c) => c / totals[j]),
    })),
  };
}
