"use client";

import { useMemo } from "react";
import type { EvictionCurve, MrcPoint } from "@/lib/api-schemas";
import { formatBytes, formatPercent } from "@/lib/format";
import { EChart } from "./EChart";
import { PALETTE, tooltipHtml, type ChartOption } from "./echarts";

interface MissRatioCurveChartProps {
  points: MrcPoint[];
  /** Every eviction policy's curve on the same sizes (drawn together, LRU's among them); [] draws `points` as LRU's. */
  curves?: EvictionCurve[];
  /** Recommended tier size in bytes (vertical mark), or null without a recommendation. */
  recommendedBytes: number | null;
  /** Capacity of the tier the volume runs with now, in bytes (vertical mark), or null. */
  currentBytes: number | null;
}

interface Mark {
  bytes: number;
  name: string;
  color: string;
  type: "dashed" | "dotted";
}

interface Series {
  name: string;
  points: MrcPoint[];
}

/**
 * Miss ratio curves: cache size (bytes, log2 axis) -> miss ratio, LRU's or every eviction
 * policy's together, with vertical marks at the recommended tier size and at the current tier
 * capacity. Points at 0 bytes have no place on a log axis and are not drawn (their miss ratio is
 * 1 by definition).
 */
export function MissRatioCurveChart({ points, curves = [], recommendedBytes, currentBytes }: MissRatioCurveChartProps) {
  const drawn = useMemo(() => points.filter((p) => p.cache_bytes > 0), [points]);
  const series = useMemo<Series[]>(
    () => (curves.length > 0 ? curves : [{ eviction: "lru" as const, points }]).map((c) => ({
      name: c.eviction.toUpperCase(),
      points: c.points.filter((p) => p.cache_bytes > 0),
    })),
    [curves, points],
  );
  const marks = useMemo(() => {
    const list: Mark[] = [];
    if (recommendedBytes) list.push({ bytes: recommendedBytes, name: "Recommended", color: PALETTE.recommended, type: "dashed" });
    if (currentBytes) list.push({ bytes: currentBytes, name: "Current tier", color: PALETTE.current, type: "dotted" });
    return list.sort((a, b) => a.bytes - b.bytes);
  }, [recommendedBytes, currentBytes]);
  const option = useMemo(() => mrcOption(series, marks), [series, marks]);

  const range = drawn.length > 0 ? `from ${formatBytes(drawn[0].cache_bytes)} to ${formatBytes(drawn.at(-1)!.cache_bytes)}` : "with no points";
  const markText = marks.map((m) => `${m.name.toLowerCase()} at ${formatBytes(m.bytes)}`).join(", ");
  return (
    <EChart
      option={option}
      testId="mrc-chart"
      points={drawn.length}
      data={{
        "data-recommended-bytes": recommendedBytes ?? "",
        "data-current-bytes": currentBytes ?? "",
        "data-marks": marks.length,
        "data-curves": series.map((c) => c.name).join(","),
      }}
      label={`Miss ratio curve${series.length > 1 ? `s of ${series.map((c) => c.name).join(", ")}` : ""}: miss ratio by cache size, ${drawn.length} points ${range}${markText ? `; ${markText}` : ""}.`}
    />
  );
}

function mrcOption(series: Series[], marks: Mark[]): ChartOption {
  const points = series[0]?.points ?? [];
  const sizes = [...points.map((p) => p.cache_bytes), ...marks.map((m) => m.bytes)];
  const min = sizes.length ? 2 ** Math.floor(Math.log2(Math.min(...sizes))) : 1;
  const max = sizes.length ? 2 ** Math.ceil(Math.log2(Math.max(...sizes))) : 2;
  return {
    animationDuration: 300,
    grid: { left: 56, right: 24, top: 24, bottom: 56 },
    legend: series.length > 1 ? { bottom: 0 } : undefined,
    tooltip: {
      trigger: "axis",
      formatter: (params) => {
        const items = Array.isArray(params) ? params : [params];
        const [bytes] = items[0].value as [number, number];
        return [tooltipHtml`Cache ${formatBytes(bytes)}`, ...items.map((item) => {
          const [, missRatio] = item.value as [number, number];
          return tooltipHtml`${items.length > 1 ? `${item.seriesName} ` : ""}miss ratio ${formatPercent(missRatio)} (hit ratio ${formatPercent(1 - missRatio)})`;
        })].join("<br/>");
      },
    },
    xAxis: {
      type: "log",
      logBase: 2,
      min,
      max,
      // A tick every doubling (every few when the range is wide); on a log axis `interval` is in log2 units.
      interval: Math.max(1, Math.ceil(Math.log2(max / min) / 12)),
      name: "Cache size",
      nameLocation: "middle",
      nameGap: 36,
      axisLabel: { hideOverlap: true, formatter: (v: number) => formatBytes(v) },
      splitLine: { show: false },
    },
    yAxis: {
      type: "value",
      min: 0,
      max: 1,
      name: "Miss ratio",
      nameTextStyle: { align: "left" },
      axisLabel: { formatter: (v: number) => formatPercent(v) },
    },
    series: series.map((c, i) => ({
      type: "line" as const,
      name: series.length > 1 ? c.name : "Miss ratio",
      color: c.name === "LRU" ? PALETTE.curve : undefined,
      showSymbol: c.points.length <= 64,
      symbolSize: 5,
      data: c.points.map((p) => [p.cache_bytes, p.miss_ratio]),
      markLine: i > 0 ? undefined : {
        symbol: ["none", "none"],
        silent: true,
        // Labels run along the lines: the smaller size's on its left, the larger's on its right, so they never meet.
        data: marks.map((m, j) => ({
          name: m.name,
          xAxis: m.bytes,
          lineStyle: { color: m.color, type: m.type, width: 2 },
          label: { formatter: `${m.name} ${formatBytes(m.bytes)}`, position: j === 0 ? "insideEndTop" : "insideEndBottom", color: m.color },
        })),
      },
    })),
  };
}
