import type { Metadata } from "next";
import Link from "next/link";
import { BlockSizeChart } from "@/components/charts/BlockSizeChart";
import { MissRatioCurveChart } from "@/components/charts/MissRatioCurveChart";
import { PolicyPanel } from "@/components/PolicyPanel";
import { RecommendationPanel } from "@/components/RecommendationPanel";
import { VolumeStats } from "@/components/VolumeStats";
import { getVolume, getVolumePolicy } from "@/lib/api";
import { formatPercent } from "@/lib/format";
import { definePage } from "@/lib/page";

export const metadata: Metadata = { title: "Volume" };

/**
 * /volumes/[volumeId]: working set and hit ratio tiles, the block-size distribution,
 * the miss ratio curve with the recommended and current tier sizes, the recommendation, and the
 * desired cache policy beside what the agent applied.
 */
export default definePage<{ volumeId: string }>({ permission: "volumes.read" }, async ({ params }) => {
  const { volumeId } = await params;
  const [volume, policy] = await Promise.all([getVolume(volumeId), getVolumePolicy(volumeId)]);
  return (
    <>
      <p className="crumbs">
        <Link href="/volumes">Volumes</Link> /
      </p>
      <h1 className="volume-title">
        {volume.display_name ?? <code title="pseudonymous volume id">{volume.volume_id}</code>}
      </h1>
      <p className="muted">
        Host <code>{volume.host_id}</code>
        {volume.display_name && (
          <>
            {" · "}id <code>{volume.volume_id}</code>
          </>
        )}
      </p>
      <VolumeStats volume={volume} />
      <section className="panel" aria-labelledby="block-sizes">
        <h2 id="block-sizes">Block-size distribution</h2>
        {volume.block_sizes.length > 0 ? (
          <BlockSizeChart bins={volume.block_sizes} />
        ) : (
          <p className="muted">No I/O size data yet.</p>
        )}
      </section>
      <section className="panel" aria-labelledby="mrc">
        <h2 id="mrc">Miss ratio curve</h2>
        {volume.mrc && volume.mrc.points.length > 0 ? (
          <>
            <MissRatioCurveChart
              points={volume.mrc.points}
              recommendedBytes={volume.recommendation?.tier_bytes ?? null}
              currentBytes={volume.cache.capacity_bytes}
            />
            <p className="muted small">
              LRU, {volume.mrc.method}, {formatPercent(volume.mrc.sampling_rate)} of blocks sampled.
            </p>
          </>
        ) : (
          <p className="muted">No miss ratio curve yet: it needs sampled block references from the agent.</p>
        )}
      </section>
      <section className="panel" aria-labelledby="recommendation">
        <h2 id="recommendation">Recommendation</h2>
        <RecommendationPanel recommendation={volume.recommendation} />
      </section>
      <section className="panel" aria-labelledby="policy">
        <h2 id="policy">Cache policy</h2>
        <PolicyPanel policy={policy} />
      </section>
    </>
  );
});
