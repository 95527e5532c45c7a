import type { Metadata } from "next";
import "@/app/analytics.css";
import Link from "next/link";
import { WorkingSetPanels } from "@/components/analytics/WorkingSetPanels";
import { StatTile } from "@/components/StatTile";
import { getCluster, getWorkingSetHistory } from "@/lib/analytics-api";
import { formatBytes, formatCount, formatPercent } from "@/lib/format";
import { definePage } from "@/lib/page";
import { parseRange } from "@/lib/time-range";

export const metadata: Metadata = { title: "Cluster" };

/** The MRC drawn: the longest window with a curve (everything since the start first). */
const MRC_WINDOWS = ["all", "7d", "24h", "1h"] as const;

/**
 * /clusters/[clusterId]: a cluster's hosts, volumes and working set per window, the shared tier
 * recommended from their merged stream (size, media, write and eviction policy, predicted hit
 * ratio and tier writes), its working set size over time and every eviction policy's MRC of the
 * merged stream with the current and recommended tier marked.
 */
export default definePage<{ clusterId: string }>({ permission: "volumes.read" }, async ({ params, searchParams }) => {
  const { clusterId } = await params;
  const range = parseRange(await searchParams, "7d");
  const [cluster, history] = await Promise.all([getCluster(clusterId), getWorkingSetHistory("clusters", clusterId, range)]);
  const mrcWindow = MRC_WINDOWS.map((w) => cluster.windows.find((x) => x.window === w)).find((x) => x?.mrc);
  const r = cluster.recommendation;
  return (
    <>
      <p className="crumbs">
        <Link href="/clusters">Clusters</Link> /
      </p>
      <h1>
        Cluster <code title="pseudonymous cluster id">{cluster.cluster_id}</code>
      </h1>
      <p className="muted" data-testid="cluster-facts">
        {formatCount(cluster.hosts)} {cluster.hosts === 1 ? "host" : "hosts"}, {formatCount(cluster.volumes)}{" "}
        {cluster.volumes === 1 ? "volume" : "volumes"} sharing a tier of {formatBytes(cluster.capacity_bytes || null)}.
      </p>
      {r ? (
        <section className="panel" aria-labelledby="shared-tier">
          <h2 id="shared-tier">Recommended shared tier</h2>
          <p data-testid="cluster-recommendation">
            {formatBytes(r.tier_bytes)} {r.media.toUpperCase()} {r.policy}
            {r.replicas > 0 ? ` +${r.replicas} peer` : ""}
            {r.eviction ? `, ${r.eviction.toUpperCase()} eviction` : ""}, for the {formatCount(r.volumes)} volumes together
            {cluster.volumes_recommended_tier_bytes != null ? ` (a tier per volume would take ${formatBytes(cluster.volumes_recommended_tier_bytes)} in all)` : ""}.
          </p>
          <div className="tiles" aria-label="Predicted effect">
            <StatTile testId="cluster-predicted-hit-ratio" label="Predicted hit ratio" value={formatPercent(r.predicted_hit_ratio)} detail={`achievable ${formatPercent(r.achievable_hit_ratio)}, target ${formatPercent(r.target_hit_ratio)}`} />
            <StatTile testId="cluster-tier-writes" label="Tier writes per day" value={r.tier_write_bytes_per_day == null ? "—" : formatBytes(r.tier_write_bytes_per_day)} detail={r.drive_writes_per_day == null ? "not predicted" : `${r.drive_writes_per_day.toFixed(1)} drive writes per day`} />
          </div>
          <p className="muted">{r.explanation}</p>
        </section>
      ) : null}
      <div className="table-scroll">
        <table className="table compact">
          <caption>Working set of the merged stream per window</caption>
          <thead>
            <tr>
              <th scope="col">Window</th>
              <th scope="col">Working set</th>
              <th scope="col">Reads</th>
              <th scope="col">Writes</th>
              <th scope="col">Sampled</th>
            </tr>
          </thead>
          <tbody>
            {cluster.windows.map((w) => (
              <tr key={w.window}>
                <th scope="row">{w.window}</th>
                <td>{formatBytes(w.working_set.wss_bytes)}</td>
                <td>{formatBytes(w.working_set.wss_read_bytes)}</td>
                <td>{formatBytes(w.working_set.wss_write_bytes)}</td>
                <td>
                  {formatCount(w.working_set.sampled_references)} refs at {formatPercent(w.working_set.sampling_rate)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <WorkingSetPanels
        path={`/clusters/${clusterId}`}
        range={range}
        history={history}
        mrc={mrcWindow?.mrc ?? null}
        currentBytes={cluster.capacity_bytes}
        recommendedBytes={cluster.recommended_tier_bytes}
        recommendedNote=" (one tier shared by its volumes)"
      />
    </>
  );
});
