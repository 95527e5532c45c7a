"use client";

import { useMemo } from "react";
import { formatTimestamp, formatValue, type ValueUnit } from "@/lib/format";
import { EChart } from "./EChart";
import { PALETTE, SERIES_COLOURS, type ChartOption } from "./echarts";
import { DataTable } from "./DataTable";

/** One line of a time-series chart: a value per time (null: no data). */
export interface TimeLine {
  name: string;
  values: (number | null)[];
  color?: string;
  /** Filled; lines with the same stack add up. */
  area?: boolean;
  stack?: string;
  dashed?: boolean;
}

interface TimeSeriesChartProps {
  /** Point times, ISO 8601, ascending. */
  times: string[];
  lines: TimeLine[];
  /** A min..max envelope drawn behind the lines (the single windows' extremes inside each point). */
  band?: { name: string; lower: (number | null)[]; upper: (number | null)[] };
  unit: ValueUnit;
  /** Width of one point, seconds: a longer step between two points is a gap (no report), not a line. */
  stepSeconds: number;
  label: string;
  testId: string;
  height?: number;
  /** Click (or Enter on a data-table row): the point's index. */
  onSelect?: (index: number) => void;
}

/**
 * Lines over a time axis (ECharts, SVG), with an optional min/max band, gaps where reports are
 * missing, a tooltip per time, click-to-select and a data-table fallback of the same numbers.
 * The container's data-series attribute holds the non-null point count of each line ("name:n,…").
 */
export function TimeSeriesChart({ times, lines, band, unit, stepSeconds, label, testId, height, onSelect }: TimeSeriesChartProps) {
  const option = useMemo(() => timeOption(times, lines, band, unit, stepSeconds), [times, lines, band, unit, stepSeconds]);
  const counts = lines.map((l) => `${l.name}:${l.values.filter((v) => v != null).length}`).join(",");
  return (
    <figure className="ts-chart">
      <EChart
        option={option}
        label={label}
        testId={testId}
        points={times.length}
        height={height}
        data={{ "data-series": counts }}
        onPlotClick={onSelect ? (x) => onSelect(nearest(times, x)) : undefined}
      />
      <DataTable
        caption={label}
        columns={["Time (UTC)", ...lines.map((l) => l.name)]}
        rows={times.map((t, i) => [formatTimestamp(t), ...lines.map((l) => formatValue(l.values[i], unit))])}
        onSelect={onSelect}
      />
    </figure>
  );
}

/** The index of the time in `times` (ascending ISO strings) nearest to `x` (ms). */
function nearest(times: string[], x: number): number {
  let best = 0;
  times.forEach((t, i) => {
    if (Math.abs(Date.parse(t) - x) < Math.abs(Date.parse(times[best]) - x)) best = i;
  });
  return best;
}

/**
 * [time ms, value] pairs of a line, with a null pair after any point followed by a longer step than
 * `stepSeconds` (no report there): ECharts breaks the line at it instead of bridging the gap.
 */
export function withGaps(times: string[], values: (number | null)[], stepSeconds: number): [number, number | null][] {
  const out: [number, number | null][] = [];
  times.forEach((t, i) => {
    const at = Date.parse(t);
    if (i > 0 && at - Date.parse(times[i - 1]) > 1.5 * stepSeconds * 1000) out.push([Date.parse(times[i - 1]) + stepSeconds * 1000, null]);
    out.push([at, values[i]]);
  });
  return out;
}

function timeOption(
  times: string[],
  lines: TimeLine[],
  band: TimeSeriesChartProps["band"],
  unit: ValueUnit,
  stepSeconds: number,
): ChartOption {
  const series: ChartOption["series"] = [];
  if (band) {
    series.push(
      { type: "line", name: `${band.name} (min)`, stack: "band", symbol: "none", silent: true, lineStyle: { opacity: 0 }, data: withGaps(times, band.lower, stepSeconds), tooltip: { show: false } },
      {
        type: "line",
        name: band.name,
        stack: "band",
        symbol: "none",
        silent: true,
        lineStyle: { opacity: 0 },
        areaStyle: { color: PALETTE.grid, opacity: 0.8 },
        data: withGaps(
          times,
          band.upper.map((u, i) => (u == null || band.lower[i] == null ? null : u - band.lower[i]!)),
          stepSeconds,
        ),
        tooltip: { show: false },
      },
    );
  }
  lines.forEach((l, i) =>
    series.push({
      type: "line",
      name: l.name,
      color: l.color ?? SERIES_COLOURS[i % SERIES_COLOURS.length],
      stack: l.stack,
      showSymbol: times.length <= 60,
      symbolSize: 5,
      lineStyle: { width: 1.5, type: l.dashed ? "dashed" : "solid" },
      areaStyle: l.area ? { opacity: 0.35 } : undefined,
      emphasis: { focus: "series" },
      data: withGaps(times, l.values, stepSeconds),
    }),
  );
  return {
    animation: false,
    aria: { enabled: true, decal: { show: lines.some((l) => l.area) } },
    grid: { left: 72, right: 16, top: 36, bottom: 40 },
    legend: { top: 0, type: "scroll", data: lines.map((l) => l.name) },
    tooltip: {
      trigger: "axis",
      valueFormatter: (v) => formatValue(typeof v === "number" ? v : null, unit),
    },
    xAxis: { type: "time", axisLabel: { hideOverlap: true }, splitLine: { show: false } },
    yAxis: {
      type: "value",
      min: 0,
      max: unit === "percent" ? 1 : undefined,
      axisLabel: { formatter: (v: number) => formatValue(v, unit) },
    },
    series,
  };
}
