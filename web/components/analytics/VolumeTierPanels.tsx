import { MissRatioCurveChart } from "@/components/charts/MissRatioCurveChart";
import { PolicyPanel } from "@/components/PolicyPanel";
import { RecommendationPanel } from "@/components/RecommendationPanel";
import type { VolumeDetail, VolumePolicy } from "@/lib/api-schemas";
import { formatPercent } from "@/lib/format";

/** The tier's panels of a volume the agent serves: miss ratio curve, recommendation, cache policy. */
export function VolumeTierPanels({ volume, policy }: { volume: VolumeDetail; policy: VolumePolicy | null }) {
  return (
    <>
      <section className="panel" aria-labelledby="mrc">
        <h2 id="mrc">Miss ratio curve</h2>
        {volume.mrc && volume.mrc.points.length > 0 ? (
          <>
            <MissRatioCurveChart points={volume.mrc.points} curves={volume.mrc.curves} recommendedBytes={volume.recommendation?.tier_bytes ?? null} currentBytes={volume.cache.capacity_bytes} />
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
}
