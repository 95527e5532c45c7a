"use client";

import { TimeSeriesChart } from "@/components/charts/TimeSeriesChart";
import { PALETTE, SERIES_COLOURS } from "@/components/charts/echarts";
import type { WorkingSetHistory } from "@/lib/analytics-schemas";

/** Working set size over time (all, read and write references), with the tier capacity and recommended size as flat lines. */
export function WorkingSetChart({ history, capacityBytes, recommendedBytes }: { history: WorkingSetHistory; capacityBytes: number | null; recommendedBytes: number | null }) {
  const times = history.points.map((p) => p.t);
  const flat = (v: number | null) => times.map(() => v);
  const lines = [
    { name: "Working set", values: history.points.map((p) => p.wss_bytes), color: SERIES_COLOURS[0] },
    { name: "Read working set", values: history.points.map((p) => p.wss_read_bytes), color: SERIES_COLOURS[4], dashed: true },
    { name: "Write working set", values: history.points.map((p) => p.wss_write_bytes), color: SERIES_COLOURS[1], dashed: true },
    ...(capacityBytes ? [{ name: "Current tier", values: flat(capacityBytes), color: PALETTE.current, dashed: true }] : []),
    ...(recommendedBytes ? [{ name: "Recommended tier", values: flat(recommendedBytes), color: PALETTE.recommended, dashed: true }] : []),
  ];
  return (
    <TimeSeriesChart
      times={times}
      lines={lines}
      band={{ name: "min–max", lower: history.points.map((p) => p.wss_min_bytes), upper: history.points.map((p) => p.wss_max_bytes) }}
      unit="bytes"
      stepSeconds={history.bucket_seconds}
      label={`Working set size over time (window ${history.window}), ${times.length} points`}
      testId="wss-chart"
    />
  );
}
