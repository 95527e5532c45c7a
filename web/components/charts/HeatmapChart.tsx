"use client";

import { useMemo } from "react";
import { formatTimestamp, formatValue, type ValueUnit } from "@/lib/format";
import { DataTable } from "./DataTable";
import { EChart } from "./EChart";
import { SEQUENTIAL, tooltipHtml, type ChartOption } from "./echarts";

interface HeatmapChartProps {
  /** Column times, ISO 8601, ascending. */
  times: string[];
  /** Row labels, bottom to top. */
  rows: string[];
  /** [column, row, value] cells; absent cells had no I/O. */
  cells: [number, number, number][];
  unit: ValueUnit;
  label: string;
  testId: string;
  /** Logarithmic colour scale (latency spans decades). */
  log?: boolean;
}

/**
 * A heatmap over time (ECharts heatmap on category axes, viridis colour scale with its legend),
 * and the same cells as a data table. data-cells holds the number of cells drawn.
 */
export function HeatmapChart({ times, rows, cells, unit, label, testId, log }: HeatmapChartProps) {
  const option = useMemo((): ChartOption => {
    const values = cells.map((c) => c[2]).filter((v) => v > 0);
    const lo = values.length ? Math.min(...values) : 1;
    const hi = values.length ? Math.max(...values) : 1;
    const scale = (v: number) => (log ? Math.log10(Math.max(v, 1e-9)) : v);
    return {
      animation: false,
      grid: { left: 88, right: 24, top: 16, bottom: 88 },
      tooltip: {
        formatter: (p) => {
          const item = Array.isArray(p) ? p[0] : p;
          const [x, y, , raw] = item.value as [number, number, number, number];
          return [tooltipHtml`${formatTimestamp(times[x])}`, tooltipHtml`${rows[y]}: ${formatValue(raw, unit)}`].join("<br/>");
        },
      },
      xAxis: { type: "category", data: times.map((t) => t.slice(5, 16).replace("T", " ")), axisLabel: { hideOverlap: true }, splitArea: { show: false } },
      yAxis: { type: "category", data: rows },
      visualMap: {
        min: scale(lo),
        max: scale(hi === lo ? lo * 10 : hi),
        dimension: 2,
        calculable: true,
        orient: "horizontal",
        left: "center",
        bottom: 8,
        inRange: { color: [...SEQUENTIAL] },
        formatter: (v) => formatValue(log ? 10 ** Number(v) : Number(v), unit),
      },
      series: [{ type: "heatmap", data: cells.map(([x, y, v]) => [x, y, scale(v), v]), emphasis: { itemStyle: { borderColor: "#000", borderWidth: 1 } } }],
    };
  }, [times, rows, cells, unit, log]);
  return (
    <figure className="ts-chart">
      <EChart option={option} label={label} testId={testId} points={cells.length} height={Math.max(260, rows.length * 28 + 110)} data={{ "data-cells": cells.length }} />
      <DataTable
        caption={label}
        columns={["Time (UTC)", ...rows]}
        rows={times.map((t, x) => [formatTimestamp(t), ...rows.map((_, y) => formatValue(cells.find((c) => c[0] === x && c[1] === y)?.[2], unit))])}
      />
    </figure>
  );
}
