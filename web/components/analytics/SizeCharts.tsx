"use client";

import { HeatmapChart } from "@/components/charts/HeatmapChart";
import { TimeSeriesChart } from "@/components/charts/TimeSeriesChart";
import { SERIES_COLOURS } from "@/components/charts/echarts";
import type { Series } from "@/lib/analytics-schemas";
import { sizeBinLabel } from "@/lib/block-size-bins";

type Direction = "all" | "read" | "write";

/** Block-size distribution over time: each ioLength bin's share of the direction's I/Os, stacked to 100 %. */
export function BlockSizeShareChart({ series, direction, subject }: { series: Series; direction: Direction; subject: string }) {
  const times = series.points.map((p) => p.t);
  const lines = series.size_bins.map((bin, i) => ({
    name: sizeBinLabel(bin),
    values: series.points.map((p) => p.sizes.find((s) => s.direction === direction && s.size_bin === bin)?.share ?? 0),
    color: SERIES_COLOURS[i % SERIES_COLOURS.length],
    area: true,
    stack: "share",
  }));
  return (
    <TimeSeriesChart
      times={times}
      lines={lines}
      unit="percent"
      stepSeconds={series.bucket_seconds}
      label={`Block-size distribution of ${subject} (${direction === "all" ? "reads and writes" : `${direction}s`}), share of I/Os per ioLength bin over ${times.length} points`}
      testId="block-size-share-chart"
      height={340}
    />
  );
}

/** Performance matrix: a latency percentile per ioLength bin (rows) and point (columns). */
export function LatencyMatrix({ series, direction, percentile, subject }: { series: Series; direction: Direction; percentile: "p50" | "p95" | "p99"; subject: string }) {
  const times = series.points.map((p) => p.t);
  const cells: [number, number, number][] = [];
  series.points.forEach((p, x) =>
    series.size_bins.forEach((bin, y) => {
      const s = p.sizes.find((c) => c.direction === direction && c.size_bin === bin);
      if (s) cells.push([x, y, s[`${percentile}_us`]]);
    }),
  );
  return (
    <HeatmapChart
      times={times}
      rows={series.size_bins.map(sizeBinLabel)}
      cells={cells}
      unit="us"
      log
      label={`Performance matrix of ${subject}: ${percentile} latency by block size (${direction === "all" ? "reads and writes" : `${direction}s`}) over time, ${cells.length} cells`}
      testId="latency-matrix"
    />
  );
}
