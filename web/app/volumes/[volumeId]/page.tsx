import type { Metadata } from "next";
import "@/app/analytics.css";
import { CpuBesideLatency } from "@/components/analytics/CpuBesideLatency";
import { CustomBreakdownForm } from "@/components/analytics/CustomBreakdownForm";
import { LiveRefresh } from "@/components/analytics/LiveRefresh";
import { PerformanceCharts } from "@/components/analytics/PerformanceCharts";
import { ParamToggle, RangePicker } from "@/components/analytics/RangePicker";
import { BREAKDOWN_LABELS, BREAKDOWNS, type Breakdown } from "@/components/analytics/breakdowns";
import { VolumeHeader } from "@/components/analytics/VolumeHeader";
import { VolumeTierPanels } from "@/components/analytics/VolumeTierPanels";
import { BlockSizeChart } from "@/components/charts/BlockSizeChart";
import { NoTierNote } from "@/components/NoTierNote";
import { VolumeStats } from "@/components/VolumeStats";
import { getVolume, getVolumePolicy } from "@/lib/api";
import { getPolicyEffect, getSeries } from "@/lib/analytics-api";
import { PortalError } from "@/lib/errors";
import { definePage } from "@/lib/page";
import { many, one } from "@/lib/search-params";
import { parseRange, rangeQuery } from "@/lib/time-range";

export const metadata: Metadata = { title: "Volume" };

/**
 * /volumes/[volumeId]: IOPS, throughput and latency over the chosen range with a breakdown
 * (storage type, read/write, block size, custom), the VM-observed latency beside the host's CPU
 * with how the latest applied policy change moved both (docs/workload.md "Storage-bound CPU"),
 * then the working set and hit ratio tiles, the block-size distribution, the miss ratio curve, the recommendation, and the desired cache
 * policy beside what the agent applied. A volume imported from vscsiStats output has no tier: one
 * note replaces the tier's tiles and panels.
 */
export default definePage<{ volumeId: string }>({ permission: "volumes.read" }, async ({ params, searchParams }) => {
  const { volumeId } = await params;
  const query = await searchParams;
  const range = parseRange(query);
  const breakdown = (one(query.breakdown) ?? "storage") as Breakdown;
  if (!BREAKDOWNS.includes(breakdown)) throw new PortalError("bad_request", `breakdown must be one of ${BREAKDOWNS.join(", ")}.`);
  const direction = one(query.direction) ?? "";
  const bins = many(query.bin);
  const [volume, policy, effect, series] = await Promise.all([
    getVolume(volumeId),
    getVolumePolicy(volumeId),
    getPolicyEffect(volumeId),
    getSeries("volume", volumeId, range, {
      sizes: breakdown === "size" || breakdown === "custom",
      ...(breakdown === "custom" ? { direction: direction || undefined, sizeBins: bins } : {}),
    }),
  ]);
  const path = `/volumes/${volumeId}`;
  const keepRange = rangeQuery(range);
  const name = volume.display_name ?? volume.volume_id;
  const imported = volume.source === "vscsistats";
  return (
    <>
      <VolumeHeader volume={volume} current="" keep={keepRange} />
      <section className="panel" aria-labelledby="performance">
        <h2 id="performance">Performance</h2>
        <div className="controls">
          <RangePicker path={path} range={range} keep={{ breakdown }} />
          <ParamToggle path={path} name="breakdown" value={breakdown} options={BREAKDOWN_LABELS} keep={keepRange} label="Breakdown" />
        </div>
        {breakdown === "custom" && <CustomBreakdownForm path={path} keep={keepRange} sizeBins={series.size_bins} direction={direction} chosen={bins} />}
        {range.live && <LiveRefresh />}
        <PerformanceCharts series={series} breakdown={breakdown} subject={`volume ${name}`} />
      </section>
      <CpuBesideLatency series={series} effect={effect} subject={`volume ${name}`} />
      <VolumeStats volume={volume} />
      {imported && <NoTierNote />}
      <section className="panel" aria-labelledby="block-sizes">
        <h2 id="block-sizes">Block-size distribution</h2>
        {volume.block_sizes.length > 0 ? <BlockSizeChart bins={volume.block_sizes} /> : <p className="muted">No I/O size data yet.</p>}
      </section>
      {!imported && <VolumeTierPanels volume={volume} policy={policy} />}
    </>
  );
});
