"use client";

import { useRouter } from "next/navigation";
import { useMemo } from "react";
import type { Overview } from "@/lib/analytics-schemas";
import { formatCount, formatLatency } from "@/lib/format";
import { EChart } from "./EChart";
import { SERIES_COLOURS, tooltipHtml, type ChartOption } from "./echarts";

/**
 * The performance map: hosts holding their volumes, each sized by its I/Os over the period
 * (ECharts treemap). Clicking a volume opens its drill-down. data-points: volumes drawn.
 */
export function PerformanceMap({ hosts, query }: { hosts: Overview["hosts"]; query: Record<string, string> }) {
  const router = useRouter();
  const volumes = hosts.flatMap((h) => h.volumes.filter((v) => v.ios > 0));
  const option = useMemo(
    (): ChartOption => ({
      animation: false,
      tooltip: {
        formatter: (p) => {
          const item = Array.isArray(p) ? p[0] : p;
          const d = item.data as { name: string; value: number; p99?: number | null };
          const lines = [tooltipHtml`${d.name}`, tooltipHtml`${formatCount(d.value)} I/Os`];
          if (d.p99 != null) lines.push(tooltipHtml`p99 ${formatLatency(d.p99)}`);
          return lines.join("<br/>");
        },
      },
      series: [
        {
          type: "treemap",
          roam: false,
          nodeClick: false,
          breadcrumb: { show: false },
          leafDepth: 2,
          levels: [
            { itemStyle: { borderColor: "#fff", borderWidth: 4, gapWidth: 4 }, upperLabel: { show: true, height: 22, color: "#fff" } },
            { itemStyle: { borderColor: "#fff", borderWidth: 1, gapWidth: 1 } },
          ],
          data: hosts
            .filter((h) => h.ios > 0)
            .map((h, i) => ({
              name: h.display_name ?? h.host_id,
              value: h.ios,
              itemStyle: { color: SERIES_COLOURS[i % SERIES_COLOURS.length] },
              children: h.volumes
                .filter((v) => v.ios > 0)
                .map((v) => ({ name: v.display_name ?? v.volume_id, id: v.volume_id, value: v.ios, p99: v.latency?.p99_us ?? null })),
            })),
        },
      ],
    }),
    [hosts],
  );
  return (
    <EChart
      option={option}
      label={`Performance map: ${hosts.length} hosts and ${volumes.length} volumes with I/O, each sized by its I/Os`}
      testId="performance-map"
      points={volumes.length}
      height={360}
      onItemClick={({ name }) => {
        const v = volumes.find((x) => (x.display_name ?? x.volume_id) === name);
        if (v) router.push(`/volumes/${v.volume_id}?${new URLSearchParams(query)}`);
      }}
    />
  );
}
