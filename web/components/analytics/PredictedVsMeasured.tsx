"use client";

import { useMemo } from "react";
import { DataTable } from "@/components/charts/DataTable";
import { EChart } from "@/components/charts/EChart";
import { PALETTE, type ChartOption } from "@/components/charts/echarts";
import type { RecommendationHistory } from "@/lib/analytics-schemas";
import { formatBytes, formatDuration, formatPercent, formatTimestamp } from "@/lib/format";

/** Every past prediction's hit ratio against the hit ratio measured while it ran (bars side by side, oldest left). */
export function PredictedVsMeasured({ history }: { history: RecommendationHistory["data"] }) {
  const rows = useMemo(() => [...history].reverse(), [history]);
  const option = useMemo(
    (): ChartOption => ({
      animation: false,
      aria: { enabled: true, decal: { show: true } },
      grid: { left: 56, right: 16, top: 32, bottom: 56 },
      legend: { top: 0 },
      tooltip: { trigger: "axis", valueFormatter: (v) => formatPercent(typeof v === "number" ? v : null) },
      xAxis: { type: "category", data: rows.map((r) => `${formatBytes(r.tier_bytes)} ${r.media}\n${r.created_at.slice(0, 10)}`) },
      yAxis: { type: "value", min: 0, max: 1, axisLabel: { formatter: (v: number) => formatPercent(v) } },
      series: [
        { type: "bar", name: "Predicted", color: PALETTE.recommended, data: rows.map((r) => r.predicted_hit_ratio) },
        { type: "bar", name: "Measured", color: PALETTE.read, data: rows.map((r) => r.measured_hit_ratio) },
      ],
    }),
    [rows],
  );
  return (
    <figure className="ts-chart">
      <EChart option={option} label={`Predicted against measured hit ratio for ${rows.length} predictions`} testId="predicted-vs-measured" points={rows.length} height={260} />
      <DataTable
        caption="Predicted against measured hit ratio"
        columns={["Since", "Tier", "Eviction", "Predicted", "Measured", "Measured over", "Error"]}
        rows={rows.map((r) => [
          formatTimestamp(r.created_at),
          `${formatBytes(r.tier_bytes)} ${r.media}`,
          r.eviction?.toUpperCase() ?? "LRU",
          formatPercent(r.predicted_hit_ratio),
          formatPercent(r.measured_hit_ratio),
          r.measured_hit_ratio == null ? "—" : formatDuration(r.measured_seconds ?? 0),
          r.hit_ratio_error == null ? "—" : `${(r.hit_ratio_error * 100).toFixed(1)} pt`,
        ])}
      />
    </figure>
  );
}
