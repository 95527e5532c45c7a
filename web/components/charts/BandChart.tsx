"use client";

import { useMemo } from "react";
import { formatValue } from "@/lib/format";
import { DataTable } from "./DataTable";
import { EChart } from "./EChart";
import { PALETTE, SERIES_COLOURS, tooltipHtml, type ChartOption } from "./echarts";

/** One figure: the cohort's band low..high with a mark at mid, and the caller's own values. */
export interface BandRow {
  name: string;
  low: number;
  mid: number;
  high: number;
  /** The caller's values, one per `names.you` entry; null where it has none. */
  you: (number | null)[];
}

interface BandChartProps {
  rows: BandRow[];
  /** percent: 0..1 on a linear axis; ratio: a log2 axis; us: latency (µs) on a log10 axis. */
  unit: "percent" | "ratio" | "us";
  /** Legend names: the band (e.g. "Cohort p25–p75"), its mark and each of the caller's markers. */
  names: { band: string; mid: string; you: string[] };
  label: string;
  testId: string;
}

/** Marker shape and colour of the caller's values, in `names.you` order (shape, not colour alone, tells them apart). */
const YOU = [
  { symbol: "diamond", color: "#D55E00" },
  { symbol: "triangle", color: PALETTE.current },
] as const;

/** Whether a value has a place on the axis (a log axis has none for 0). */
const drawable = (v: number | null, unit: BandChartProps["unit"]): v is number => v != null && (unit === "percent" || v > 0);

/**
 * Horizontal percentile bands (ECharts, SVG): per row the cohort's band as a thick bar, its mark
 * as a tick and the caller's values as markers (labelled "you are here" in a one-row chart of one value), with
 * the same numbers as a data table. data-rows: rows drawn; data-you: markers drawn.
 */
export function BandChart({ rows, unit, names, label, testId }: BandChartProps) {
  const option = useMemo(() => bandOption(rows, unit, names), [rows, unit, names]);
  const markers = rows.reduce((n, r) => n + r.you.filter((v) => drawable(v, unit)).length, 0);
  return (
    <figure className="ts-chart">
      <EChart option={option} label={label} testId={testId} points={rows.length} height={72 + rows.length * 40} data={{ "data-rows": rows.length, "data-you": markers }} />
      <DataTable
        caption={label}
        columns={["Figure", `${names.band} (low)`, names.mid, `${names.band} (high)`, ...names.you]}
        rows={rows.map((r) => [r.name, ...[r.low, r.mid, r.high, ...r.you].map((v) => formatValue(v, unit))])}
      />
    </figure>
  );
}

function bandOption(rows: BandRow[], unit: BandChartProps["unit"], names: BandChartProps["names"]): ChartOption {
  const base = unit === "us" ? 10 : 2;
  const values = rows.flatMap((r) => [r.low, r.high, ...r.you]).filter((v): v is number => v != null && v > 0);
  const exponent = (v: number) => Math.log(v) / Math.log(base);
  const min = values.length ? base ** Math.floor(exponent(Math.min(...values))) : 1;
  const max = Math.max(values.length ? base ** Math.ceil(exponent(Math.max(...values))) : 1, min * base);
  const xAxis: ChartOption["xAxis"] =
    unit === "percent"
      ? { type: "value", min: 0, max: 1, axisLabel: { formatter: (v: number) => formatValue(v, unit) } }
      : { type: "log", logBase: base, min, max, axisLabel: { hideOverlap: true, formatter: (v: number) => formatValue(v, unit) } };
  /** The row's full figures, whichever of its marks is hovered. */
  const tooltip = (i: number) =>
    [
      tooltipHtml`<b>${rows[i].name}</b>`,
      tooltipHtml`${names.band}: ${formatValue(rows[i].low, unit)} – ${formatValue(rows[i].high, unit)}`,
      tooltipHtml`${names.mid}: ${formatValue(rows[i].mid, unit)}`,
      ...names.you.map((n, j) => tooltipHtml`${n}: ${formatValue(rows[i].you[j], unit)}`),
    ].join("<br/>");
  return {
    animation: false,
    grid: { left: 96, right: 24, top: 32, bottom: 28 },
    legend: { top: 0, data: [{ name: names.band, icon: "roundRect" }, names.mid, ...names.you] },
    tooltip: { trigger: "item", formatter: (p) => tooltip(((Array.isArray(p) ? p[0] : p).value as [number, number])[1]) },
    xAxis,
    yAxis: { type: "category", data: rows.map((r) => r.name), inverse: true, axisTick: { show: false } },
    series: [
      ...rows.map((r, i) => ({
        type: "line" as const,
        name: names.band,
        color: SERIES_COLOURS[4],
        symbol: "none",
        silent: true,
        lineStyle: { width: 14, cap: "butt" as const, opacity: 0.55 },
        data: [
          [r.low, i],
          [r.high, i],
        ],
      })),
      { type: "scatter" as const, name: names.mid, color: PALETTE.axis, symbol: "rect", symbolSize: [3, 22], data: rows.map((r, i) => [r.mid, i]) },
      ...names.you.map((n, j) => ({
        type: "scatter" as const,
        name: n,
        color: YOU[j % YOU.length].color,
        symbol: YOU[j % YOU.length].symbol,
        symbolSize: 14,
        z: 3,
        label: { show: rows.length === 1 && names.you.length === 1, position: "top" as const, formatter: "you are here", color: "inherit" },
        data: rows.flatMap((r, i) => (drawable(r.you[j], unit) ? [[r.you[j], i]] : [])),
      })),
    ],
  };
}
