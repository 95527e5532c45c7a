import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from "echarts/charts";
import {
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
  type GridComponentOption,
  type LegendComponentOption,
  type MarkLineComponentOption,
  type TooltipComponentOption,
} from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";

/** Only the ECharts parts the portal draws with (keeps the client bundle small); SVG renderer. */
echarts.use([BarChart, LineChart, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent, SVGRenderer]);

/** Option type limited to the registered chart types and components. */
export type ChartOption = echarts.ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | MarkLineComponentOption
  | TooltipComponentOption
>;

export { echarts };

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
  axis: "#6b7280",
  grid: "#e5e7eb",
} as const;
