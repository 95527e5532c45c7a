"use client";

import { useEffect, useRef } from "react";
import { echarts, type ChartOption } from "./echarts";
import { useColourScheme } from "./useColourScheme";

interface EChartProps {
  option: ChartOption;
  /** Accessible description of what the chart shows (aria-label of the role="img" container). */
  label: string;
  testId: string;
  /** Data points drawn; written to data-points once ECharts reports the render finished. */
  points: number;
  /** Extra data-* attributes describing the drawing (e.g. marks), set with the container. */
  data?: Record<`data-${string}`, string | number>;
  height?: number;
  /** Called with the clicked item's series and data index (click a point to see its detail). */
  onItemClick?: (item: { seriesIndex: number; dataIndex: number; name: string }) => void;
  /** Called with the x-axis value under a click anywhere in the plot (time charts: the clicked time, ms). */
  onPlotClick?: (x: number) => void;
}

/**
 * One ECharts instance (SVG renderer) in a labelled container. The container gets
 * data-points only after the chart's "finished" event, so a test can wait for the drawing.
 * Resizes with its container (narrow screens). Follows the colour scheme live: ECharts' built-in
 * "dark" theme (axes, legends, tooltips) and the page's text colour when the scheme changes.
 */
export function EChart({ option, label, testId, points, data, height = 320, onItemClick, onPlotClick }: EChartProps) {
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const drawn = useRef(points);
  const click = useRef(onItemClick);
  click.current = onItemClick;
  const plotClick = useRef(onPlotClick);
  plotClick.current = onPlotClick;
  const scheme = useColourScheme();
  const theme = scheme === "dark" ? "dark" : "default";
  const drawnTheme = useRef(theme);

  useEffect(() => {
    const node = el.current!;
    const instance = echarts.init(node, drawnTheme.current, { renderer: "svg" });
    instance.on("finished", () => node.setAttribute("data-points", String(drawn.current)));
    instance.on("click", (p) => click.current?.({ seriesIndex: p.seriesIndex ?? 0, dataIndex: p.dataIndex, name: p.name }));
    instance.getZr().on("click", (e) => {
      if (!plotClick.current || !instance.containPixel({ gridIndex: 0 }, [e.offsetX, e.offsetY])) return;
      const [x] = instance.convertFromPixel({ gridIndex: 0 }, [e.offsetX, e.offsetY]) as number[];
      plotClick.current(x);
    });
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(node);
    chart.current = instance;
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    drawn.current = points;
    el.current!.removeAttribute("data-points");
    if (drawnTheme.current !== theme) {
      chart.current!.setTheme(theme);
      drawnTheme.current = theme;
    }
    // Text takes the container's colour (the page's --text, light or dark scheme) unless the option sets one;
    // the page's background shows through (the dark theme would paint its own).
    const text = getComputedStyle(el.current!).color;
    chart.current!.setOption({ backgroundColor: "transparent", textStyle: { color: text }, ...option }, { notMerge: true });
  }, [option, points, theme]);

  return <div ref={el} className="chart" role="img" aria-label={label} data-testid={testId} data-scheme={scheme} style={{ height }} {...data} />;
}
