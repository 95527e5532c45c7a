import {
  BarChart,
  HeatmapChart,
  LineChart,
  ScatterChart,
  TreemapChart,
  type BarSeriesOption,
  type HeatmapSeriesOption,
  type LineSeriesOption,
  type ScatterSeriesOption,
  type TreemapSeriesOption,
} from "echarts/charts";
import {
  AriaComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
  type AriaComponentOption,
  type GridComponentOption,
  type LegendComponentOption,
  type MarkLineComponentOption,
  type TooltipComponentOption,
  type VisualMapComponentOption,
} from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";

/** Only the ECharts parts the portal draws with (keeps the client bundle small); SVG renderer. */
echarts.use([
  BarChart,
  LineChart,
  HeatmapChart,
  ScatterChart,
  TreemapChart,
  AriaComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  VisualMapComponent,
  SVGRenderer,
]);

/** Option type limited to the registered chart types and components. */
export type ChartOption = echarts.ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | HeatmapSeriesOption
  | ScatterSeriesOption
  | TreemapSeriesOption
  | AriaComponentOption
  | GridComponentOption
  | LegendComponentOption
  | MarkLineComponentOption
  | TooltipComponentOption
  | VisualMapComponentOption
>;

export { echarts };

/**
 * Tooltip markup, the one way a chart builds it: ECharts renders a formatter's string as HTML,
 * and names come from agents and tenants (issue 16, finding 1: a volume named
 * `x<img src=x onerror=...>` ran in an admin's browser). The template's literal parts are markup;
 * every interpolated value is text, escaped with ECharts' own `format.encodeHTML`. Lines join
 * with `<br/>`.
 */
export function tooltipHtml(strings: TemplateStringsArray, ...values: unknown[]): string {
  return strings.reduce((out, part, i) => out + part + (i < values.length ? echarts.format.encodeHTML(String(values[i])) : ""), "");
}

/**
 * Okabe–Ito palette (Okabe & Ito, "Color Universal Design", 2008): distinguishable with
 * the common colour-vision deficiencies. Marks also differ by line style, not colour alone.
 */
export const PALETTE = {
  read: "#0072B2",
  write: "#E69F00",
  curve: "#0072B2",
  recommended: "#009E73",
  current: "#CC79A7",
  /** Neutral grey of reference lines (e.g. all I/O behind a custom selection). */
  axis: "#6b7280",
  /** The min–max band behind time series lines (drawn at 80 % opacity). */
  grid: "#e5e7eb",
} as const;

/** The Okabe–Ito colours in order, for series without a fixed meaning (block-size bins, custom selections). */
export const SERIES_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"] as const;

/** The colour of a direction's histogram: reads and writes as in every chart, both together green. */
export const DIRECTION_COLOURS = { all: SERIES_COLOURS[2], read: PALETTE.read, write: PALETTE.write } as const;

/** Viridis (perceptually uniform, colour-blind-safe; van der Walt & Smith, 2015), low to high, for heatmaps. */
export const SEQUENTIAL = ["#440154", "#3b528b", "#21918c", "#5ec962", "#fde725"] as const;
