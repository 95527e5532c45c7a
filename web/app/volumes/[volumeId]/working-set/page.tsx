import type { Metadata } from "next";
import "@/app/analytics.css";
import { RangePicker } from "@/components/analytics/RangePicker";
import { VolumeHeader } from "@/components/analytics/VolumeHeader";
import { WorkingSetChart } from "@/components/analytics/WorkingSetChart";
import { MissRatioCurveChart } from "@/components/charts/MissRatioCurveChart";
import { getVolume } from "@/lib/api";
import { getWorkingSetHistory } from "@/lib/analytics-api";
import { formatBytes, formatPercent } from "@/lib/format";
import { definePage } from "@/lib/page";
import { parseRange, rangeQuery } from "@/lib/time-range";

export const metadata: Metadata = { title: "Working set" };

/** /volumes/[volumeId]/working-set: working set size over time and the MRC with the current and recommended tier. */
export default definePage<{ volumeId: string }>({ permission: "volumes.read" }, async ({ params, searchParams }) => {
  const { volumeId } = await params;
  const range = parseRange(await searchParams, "7d");
  const [volume, history] = await Promise.all([getVolume(volumeId), getWorkingSetHistory(volumeId, range)]);
  const keep = rangeQuery(range);
  return (
    <>
      <VolumeHeader volume={volume} current="/working-set" keep={keep} />
      <section className="panel" aria-labelledby="wss">
        <h2 id="wss">Working set size over time</h2>
        <RangePicker path={`/volumes/${volumeId}/working-set`} range={range} />
        {history.points.length > 0 ? (
          <WorkingSetChart history={history} capacityBytes={volume.cache.capacity_bytes} recommendedBytes={volume.recommendation?.tier_bytes ?? null} />
        ) : (
          <p className="muted">No working-set estimates in this range (the 1-hour window&apos;s estimates are kept once a minute).</p>
        )}
      </section>
      <section className="panel" aria-labelledby="mrc">
        <h2 id="mrc">Miss ratio curve</h2>
        {volume.mrc && volume.mrc.points.length > 0 ? (
          <>
            <MissRatioCurveChart points={volume.mrc.points} recommendedBytes={volume.recommendation?.tier_bytes ?? null} currentBytes={volume.cache.capacity_bytes} />
            <p className="muted small">
              LRU, {volume.mrc.method}, {formatPercent(volume.mrc.sampling_rate)} of blocks sampled. Current tier {formatBytes(volume.cache.capacity_bytes)}, recommended{" "}
              {formatBytes(volume.recommendation?.tier_bytes)}.
            </p>
          </>
        ) : (
          <p className="muted">No miss ratio curve yet: it needs sampled block references from the agent.</p>
        )}
      </section>
    </>
  );
});
