"use client";

import { useMemo } from "react";
import type { MrcPoint } from "@/lib/api-schemas";
import { formatBytes, formatPercent } from "@/lib/format";
import { EChart } from "./EChart";
import { PALETTE, type ChartOption } from "./echarts";

interface MissRatioCurveChartProps {
  points: MrcPoint[];
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

/**
 * LRU miss ratio curve: cache size (bytes, log2 axis) -> miss ratio, with vertical marks
 * at the recommended tier size and at the current tier capacity. Points at 0 bytes have
 * no place on a log axis and are not drawn (their miss ratio is 1 by definition).
 */
export function MissRatioCurveChart({ points, recommendedBytes, currentBytes }: MissRatioCurveChartProps) {
  const drawn = useMemo(() => points.filter((p) => p.cache_bytes > 0), [points]);
  const marks = useMemo(() => {
    const list: Mark[] = [];
    if (recommendedBytes) list.push({ bytes: recommendedBytes, name: "Recommended", color: PALETTE.recommended, type: "dashed" });
    if (currentBytes) list.push({ bytes: currentBytes, name: "Current tier", color: PALETTE.current, type: "dotted" });
    return list.sort((a, b) => a.bytes - b.bytes);
  }, [recommendedBytes, currentBytes]);
  const option = useMemo(() => mrcOption(drawn, marks), [drawn, marks]);

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
      }}
      label={`Miss ratio curve: miss ratio by cache size, ${drawn.length} points ${range}${markText ? `; ${markText}` : ""}.`}
    />
  );
}

function mrcOption(points: MrcPoint[], marks: Mark[]): ChartOption {
  const sizes = [...points.map((p) => p.cache_bytes), ...marks.map((m) => m.bytes)];
  const min = sizes.length ? 2 ** Math.floor(Math.log2(Math.min(...sizes))) : 1;
  const max = sizes.length ? 2 ** Math.ceil(Math.log2(Math.max(...sizes))) : 2;
  return {
    animationDuration: 300,
    grid: { left: 56, right: 24, top: 24, bottom: 56 },
    tooltip: {
      trigger: "axis",
      formatter: (params) => {
        const [item] = Array.isArray(params) ? params : [params];
        const [bytes, missRatio] = item.value as [number, number];
        return `Cache ${formatBytes(bytes)}<br/>Miss ratio ${formatPercent(missRatio)} (hit ratio ${formatPercent(1 - missRatio)})`;
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
    series: [
      {
        type: "line",
        name: "Miss ratio",
        color: PALETTE.curve,
        showSymbol: points.length <= 64,
        symbolSize: 5,
        data: points.map((p) => [p.cache_bytes, p.miss_ratio]),
        markLine: {
          symbol: ["none", "none"],
          silent: true,
          // Labels run along the lines: the smaller size's on its left, the larger's on its right, so they never meet.
          data: marks.map((m, i) => ({
            name: m.name,
            xAxis: m.bytes,
            lineStyle: { color: m.color, type: m.type, width: 2 },
            label: { formatter: `${m.name} ${formatBytes(m.bytes)}`, position: i === 0 ? "insideEndTop" : "insideEndBottom", color: m.color },
          })),
        },
      },
    ],
  };
}
