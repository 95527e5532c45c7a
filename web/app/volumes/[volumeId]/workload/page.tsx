import type { Metadata } from "next";
import "@/app/analytics.css";
import { LiveRefresh } from "@/components/analytics/LiveRefresh";
import { ParamToggle, RangePicker } from "@/components/analytics/RangePicker";
import { BlockSizeShareChart } from "@/components/analytics/SizeCharts";
import { VolumeHeader } from "@/components/analytics/VolumeHeader";
import { getVolume } from "@/lib/api";
import { getSeries } from "@/lib/analytics-api";
import { definePage } from "@/lib/page";
import { one } from "@/lib/search-params";
import { directionOf, DIRECTIONS } from "@/lib/direction";
import { parseRange, rangeQuery } from "@/lib/time-range";

export const metadata: Metadata = { title: "Workload" };

/** /volumes/[volumeId]/workload: the block-size distribution over time, in percent of I/Os. */
export default definePage<{ volumeId: string }>({ permission: "volumes.read" }, async ({ params, searchParams }) => {
  const { volumeId } = await params;
  const query = await searchParams;
  const range = parseRange(query);
  const direction = directionOf(one(query.direction));
  const [volume, series] = await Promise.all([getVolume(volumeId), getSeries("volume", volumeId, range, { sizes: true })]);
  const path = `/volumes/${volumeId}/workload`;
  const keep = rangeQuery(range);
  return (
    <>
      <VolumeHeader volume={volume} current="/workload" keep={keep} />
      <section className="panel" aria-labelledby="workload">
        <h2 id="workload">Block-size distribution over time</h2>
        <div className="controls">
          <RangePicker path={path} range={range} keep={{ direction }} />
          <ParamToggle path={path} name="direction" value={direction} options={DIRECTIONS} keep={keep} label="Direction" />
        </div>
        {range.live && <LiveRefresh />}
        {series.points.length > 0 ? (
          <BlockSizeShareChart series={series} direction={direction} subject={volume.display_name ?? volume.volume_id} />
        ) : (
          <p className="muted">No I/O reported in this range.</p>
        )}
        <p className="muted small">vscsiStats ioLength bins; each point is {series.bucket_seconds} s of {series.resolution} rollups.</p>
      </section>
    </>
  );
});
