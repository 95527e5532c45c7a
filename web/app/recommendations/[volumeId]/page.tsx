import type { Metadata } from "next";
import "@/app/analytics.css";
import Link from "next/link";
import { PolicyState } from "@/components/analytics/PolicyState";
import { PredictedVsMeasured } from "@/components/analytics/PredictedVsMeasured";
import { RecommendationDecision } from "@/components/analytics/RecommendationDecision";
import { WhatIf } from "@/components/analytics/WhatIf";
import { NameOrId } from "@/components/NameOrId";
import { StatTile } from "@/components/StatTile";
import { getPolicy, getRecommendation, getRecommendationHistory } from "@/lib/analytics-api";
import { WhatIfRow } from "@/lib/analytics-schemas";
import { formatBytes, formatCount, formatDuration, formatLatency, formatPercent, formatRate, formatTimestamp } from "@/lib/format";
import { definePage } from "@/lib/page";
import { can } from "@/lib/permissions";
import { currentSession } from "@/lib/session";

export const metadata: Metadata = { title: "Recommendation" };

/**
 * /recommendations/[volumeId]: the recommendation with its explanation and predicted effect,
 * a what-if control (any size and eviction policy of the curve), Apply (becomes the volume's desired
 * policy) and Dismiss, the desired and applied policy, and every past prediction against the hit
 * ratio measured while it ran.
 */
export default definePage<{ volumeId: string }>({ permission: "recommendations.read" }, async ({ params }) => {
  const { volumeId } = await params;
  const [r, policy, history, session] = await Promise.all([getRecommendation(volumeId), getPolicy(volumeId), getRecommendationHistory(volumeId), currentSession()]);
  // A prediction written before the jobs made the what-if table has none: no control.
  const whatIf = WhatIfRow.array().catch([]).parse(r.inputs.what_if ?? []);
  const latencyGain = r.predicted_latency_us != null && r.datastore_latency_us != null ? `${formatLatency(r.datastore_latency_us)} → ${formatLatency(r.predicted_latency_us)}` : "—";
  return (
    <>
      <p className="crumbs">
        <Link href="/recommendations">Recommendations</Link> / <Link href={`/volumes/${volumeId}`}>volume</Link> /
      </p>
      <h1>
        {formatBytes(r.tier_bytes)} {r.media.toUpperCase()} {r.policy}
        {r.replicas > 0 ? ` +${r.replicas} peer` : ""}
        {r.eviction ? `, ${r.eviction.toUpperCase()} eviction` : ""} for <NameOrId name={r.display_name} id={r.volume_id} kind="volume" />
      </h1>
      {r.display_name && (
        <p className="muted">
          Volume id <code data-testid="volume-id">{r.volume_id}</code>
        </p>
      )}
      <p className="muted">
        Status <span className={`status status--${r.status}`} data-testid="recommendation-status">{r.status}</span>
        {r.decided_at ? ` since ${formatTimestamp(r.decided_at)}` : ""} · computed {formatTimestamp(r.created_at)} from the {r.window_name} window
      </p>
      <section className="panel" aria-labelledby="why">
        <h2 id="why">Why</h2>
        <p data-testid="explanation">{r.explanation}</p>
      </section>
      <div className="tiles" aria-label="Predicted effect">
        <StatTile testId="predicted-hit-ratio" label="Predicted hit ratio" value={formatPercent(r.predicted_hit_ratio)} detail={`achievable ${formatPercent(r.achievable_hit_ratio)}, target ${formatPercent(r.target_hit_ratio)}`} />
        <StatTile testId="predicted-offload" label="Offloaded from the datastore" value={`${formatCount(r.offloaded_iops)} IOPS`} detail={formatRate(r.offloaded_bytes_per_second)} />
        <StatTile testId="predicted-latency" label="Mean latency (VM observed)" value={latencyGain} detail="without the tier → with it (modelled)" />
        <StatTile testId="predicted-tier-writes" label="Tier writes per day" value={r.tier_write_bytes_per_day == null ? "—" : formatBytes(r.tier_write_bytes_per_day)} detail={r.drive_writes_per_day == null ? "not predicted for this recommendation" : `${r.drive_writes_per_day.toFixed(1)} drive writes per day for a ${formatBytes(r.tier_bytes)} device`} />
        <StatTile testId="measured-hit-ratio" label="Measured hit ratio" value={formatPercent(r.measured_hit_ratio)} detail={r.measured_at ? `error ${((r.hit_ratio_error ?? 0) * 100).toFixed(1)} pt over ${formatDuration(r.measured_seconds ?? 0)}, ${formatTimestamp(r.measured_at)}` : "measured once applied, reported running by the agent and the tier is warm"} />
      </div>
      <WhatIf rows={whatIf} tierBytes={r.tier_bytes} eviction={r.eviction} />
      <section className="panel" aria-labelledby="policy">
        <h2 id="policy">Policy</h2>
        <PolicyState policy={policy} />
        <RecommendationDecision volumeId={volumeId} createdAt={r.created_at} eviction={r.eviction} status={r.status} canWrite={can(session.role, "recommendations.write")} />
      </section>
      <section className="panel" aria-labelledby="history">
        <h2 id="history">Predicted against measured</h2>
        {history.data.length > 0 ? <PredictedVsMeasured history={history.data} /> : <p className="muted">No past predictions.</p>}
      </section>
    </>
  );
});
