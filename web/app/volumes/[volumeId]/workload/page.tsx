import type { Metadata } from "next";
import "@/app/analytics.css";
import { AlignmentPanel } from "@/components/analytics/AlignmentPanel";
import { LiveRefresh } from "@/components/analytics/LiveRefresh";
import { RandomnessTiles } from "@/components/analytics/RandomnessTiles";
import { ParamToggle, RangePicker } from "@/components/analytics/RangePicker";
import { BlockSizeShareChart } from "@/components/analytics/SizeCharts";
import { VolumeHeader } from "@/components/analytics/VolumeHeader";
import { WorkloadHistograms } from "@/components/analytics/WorkloadHistograms";
import { getVolume } from "@/lib/api";
import { getSeries, getWorkload } from "@/lib/analytics-api";
import { definePage } from "@/lib/page";
import { one } from "@/lib/search-params";
import { directionOf, DIRECTIONS } from "@/lib/direction";
import { parseRange, rangeQuery } from "@/lib/time-range";

export const metadata: Metadata = { title: "Workload" };

/**
 * /volumes/[volumeId]/workload: the volume's workload as vscsiStats shows it over the range — how
 * random its I/O is, the block-size distribution over time (percent of I/Os), seek distance
 * (sectors), outstanding I/Os, interarrival time (µs), an imported volume's latency (µs) and block
 * alignment (bytes into the 4 KiB block, with the realignment advice) — for reads, writes or both;
 * the header downloads the fio job of the range.
 */
export default definePage<{ volumeId: string }>({ permission: "volumes.read" }, async ({ params, searchParams }) => {
  const { volumeId } = await params;
  const query = await searchParams;
  const range = parseRange(query);
  const direction = directionOf(one(query.direction));
  const [volume, series, workload] = await Promise.all([
    getVolume(volumeId),
    getSeries("volume", volumeId, range, { sizes: true }),
    getWorkload(volumeId, range),
  ]);
  const path = `/volumes/${volumeId}/workload`;
  const keep = rangeQuery(range);
  const subject = volume.display_name ?? volume.volume_id;
  return (
    <>
      <VolumeHeader volume={volume} current="/workload" keep={keep} />
      <div className="controls">
        <RangePicker path={path} range={range} keep={{ direction }} />
        <ParamToggle path={path} name="direction" value={direction} options={DIRECTIONS} keep={keep} label="Direction" />
      </div>
      {range.live && <LiveRefresh />}
      {workload.randomness && <RandomnessTiles randomness={workload.randomness} />}
      <section className="panel" aria-labelledby="workload">
        <h2 id="workload">Block-size distribution over time</h2>
        {series.points.length > 0 ? (
          <BlockSizeShareChart series={series} direction={direction} subject={subject} />
        ) : (
          <p className="muted">No I/O reported in this range.</p>
        )}
        <p className="muted small">vscsiStats ioLength bins; each point is {series.bucket_seconds} s of {series.resolution} rollups.</p>
      </section>
      {workload.windows > 0 ? (
        <>
          <WorkloadHistograms workload={workload} direction={direction} subject={subject} />
          <p className="muted small">
            vscsiStats buckets merged over {workload.windows} rollup windows of {workload.resolution}; each bar is its bucket&apos;s share of the histogram&apos;s commands.
          </p>
          <AlignmentPanel alignment={workload.alignment} direction={direction} subject={subject} imported={volume.source === "vscsistats"} />
        </>
      ) : (
        <p className="muted" data-testid="workload-empty">
          No seek distance, outstanding I/O, interarrival or alignment histograms reported in this range.
        </p>
      )}
    </>
  );
});
