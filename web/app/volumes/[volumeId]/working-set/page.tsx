import type { Metadata } from "next";
import "@/app/analytics.css";
import { VolumeHeader } from "@/components/analytics/VolumeHeader";
import { WorkingSetPanels } from "@/components/analytics/WorkingSetPanels";
import { NoTierNote } from "@/components/NoTierNote";
import { getVolume } from "@/lib/api";
import { getWorkingSetHistory } from "@/lib/analytics-api";
import { definePage } from "@/lib/page";
import { parseRange, rangeQuery } from "@/lib/time-range";

export const metadata: Metadata = { title: "Working set" };

/**
 * /volumes/[volumeId]/working-set: working set size over time and the MRC with the current and
 * recommended tier; for a volume imported from vscsiStats output (no tier) the note saying so.
 */
export default definePage<{ volumeId: string }>({ permission: "volumes.read" }, async ({ params, searchParams }) => {
  const { volumeId } = await params;
  const range = parseRange(await searchParams, "7d");
  const [volume, history] = await Promise.all([getVolume(volumeId), getWorkingSetHistory("volumes", volumeId, range)]);
  return (
    <>
      <VolumeHeader volume={volume} current="/working-set" keep={rangeQuery(range)} />
      {volume.source === "vscsistats" ? (
        <NoTierNote />
      ) : (
        <WorkingSetPanels
          path={`/volumes/${volumeId}/working-set`}
          range={range}
          history={history}
          mrc={volume.mrc}
          currentBytes={volume.cache.capacity_bytes}
          recommendedBytes={volume.recommendation?.tier_bytes ?? null}
        />
      )}
    </>
  );
});
