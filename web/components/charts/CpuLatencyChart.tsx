"use client";

import { useMemo } from "react";
import type { SeriesCpu } from "@/lib/analytics-schemas";
import { formatCores, formatLatency, formatPercent, formatTimestamp } from "@/lib/format";
import { DataTable } from "./DataTable";
import { EChart } from "./EChart";
import { SERIES_COLOURS, type ChartOption } from "./echarts";
import { withGaps } from "./TimeSeriesChart";

/** What the chart draws of one series point: its VM-observed median latency and its CPU (null: not reported). */
export interface CpuLatencyPoint {
  t: string;
  latency_p50_us: number | null;
  cpu: SeriesCpu | null;
}

interface CpuLatencyChartProps {
  points: CpuLatencyPoint[];
  /** Width of one point, seconds (a longer step is a gap). */
  stepSeconds: number;
  label: string;
  testId: string;
}

/** One line: its name, values, axis (0: latency, 1: share of the host's CPUs), colour and dash (lines differ by dash too). */
interface Line {
  name: string;
  values: (number | null)[];
  axis: 0 | 1;
  color: string;
  dash: "solid" | "dashed" | "dotted";
  /** The tooltip's text for the value at an index of the gapped data. */
  tooltip: (value: number, index: number) => string;
}

/**
 * VM-observed latency (p50, left axis) over time beside the host's CPU on a second axis, as shares
 * of all its CPUs: busy, iowait, and the volume's consumer (its cores over the host's CPUs; the
 * tooltip and the data table give the cores). The reading (docs/workload.md "Storage-bound CPU"):
 * CPU that rises as latency falls is work getting done. The consumer's line only when some point
 * names one. Data-table fallback; data-series holds each line's non-null point count ("name:n,…").
 */
export function CpuLatencyChart({ points, stepSeconds, label, testId }: CpuLatencyChartProps) {
  const times = useMemo(() => points.map((p) => p.t), [points]);
  const consumer = points.some((p) => p.cpu?.consumer_cores != null);
  const lines = useMemo(() => cpuLines(points, stepSeconds, consumer), [points, stepSeconds, consumer]);
  const option = useMemo(() => chartOption(times, lines, stepSeconds), [times, lines, stepSeconds]);
  const counts = lines.map((l) => `${l.name}:${l.values.filter((v) => v != null).length}`).join(",");
  return (
    <figure className="ts-chart">
      <EChart option={option} label={label} testId={testId} points={times.length} height={300} data={{ "data-series": counts }} />
      <DataTable
        caption={label}
        columns={["Time (UTC)", "VM-observed latency p50", "Host CPU busy", "Host iowait", ...(consumer ? ["Consumer CPU"] : [])]}
        rows={points.map((p) => [
          formatTimestamp(p.t),
          formatLatency(p.latency_p50_us),
          formatPercent(p.cpu?.host_busy),
          formatPercent(p.cpu?.host_iowait),
          ...(consumer ? [formatCores(p.cpu?.consumer_cores)] : []),
        ])}
      />
    </figure>
  );
}

/** The chart's lines: latency, host busy, iowait, and with `consumer` the consumer's. */
function cpuLines(points: CpuLatencyPoint[], stepSeconds: number, consumer: boolean): Line[] {
  const times = points.map((p) => p.t);
  const share = (v: number) => formatPercent(v);
  const lines: Line[] = [
    { name: "VM-observed latency p50", values: points.map((p) => p.latency_p50_us), axis: 0, color: SERIES_COLOURS[0], dash: "solid", tooltip: (v) => formatLatency(v) },
    { name: "Host CPU busy", values: points.map((p) => p.cpu?.host_busy ?? null), axis: 1, color: SERIES_COLOURS[5], dash: "solid", tooltip: share },
    { name: "Host iowait", values: points.map((p) => p.cpu?.host_iowait ?? null), axis: 1, color: SERIES_COLOURS[1], dash: "dashed", tooltip: share },
  ];
  if (consumer) {
    // Drawn as a share of the host's CPUs (one axis for all CPU); the tooltip says the cores, read
    // from the same gapped positions as the drawn values.
    const cores = withGaps(times, points.map((p) => p.cpu?.consumer_cores ?? null), stepSeconds).map(([, c]) => c);
    lines.push({
      name: "Consumer CPU",
      values: points.map((p) => (p.cpu?.consumer_cores != null && p.cpu.host_cpus > 0 ? p.cpu.consumer_cores / p.cpu.host_cpus : null)),
      axis: 1,
      color: SERIES_COLOURS[2],
      dash: "dotted",
      tooltip: (v, i) => `${formatCores(cores[i])} (${formatPercent(v)} of the host)`,
    });
  }
  return lines;
}

/** Latency on the left axis, CPU shares on the right; each line's tooltip writes its own unit. */
function chartOption(times: string[], lines: Line[], stepSeconds: number): ChartOption {
  return {
    animation: false,
    aria: { enabled: true },
    grid: { left: 64, right: 56, top: 48, bottom: 40 },
    legend: { top: 0, type: "scroll", data: lines.map((l) => l.name) },
    tooltip: { trigger: "axis" },
    xAxis: { type: "time", axisLabel: { hideOverlap: true }, splitLine: { show: false } },
    yAxis: [
      { type: "value", name: "Latency", min: 0, axisLabel: { formatter: (v: number) => formatLatency(v) } },
      // Shares of the host's CPUs: the highest rounded up to a tenth, never past all of them.
      { type: "value", name: "CPU", min: 0, max: (extent: { max: number }) => Math.min(1, Math.max(0.1, Math.ceil(extent.max * 10) / 10)), splitLine: { show: false }, axisLabel: { formatter: (v: number) => formatPercent(v) } },
    ],
    series: lines.map((l) => ({
      type: "line",
      name: l.name,
      yAxisIndex: l.axis,
      color: l.color,
      showSymbol: times.length <= 60,
      symbolSize: 5,
      lineStyle: { width: l.axis === 0 ? 2 : 1.5, type: l.dash },
      emphasis: { focus: "series" },
      tooltip: { valueFormatter: (v, i) => (typeof v === "number" ? l.tooltip(v, i) : "—") },
      data: withGaps(times, l.values, stepSeconds),
    })),
  };
}
