import type { Metadata } from "next";
import "@/app/analytics.css";
import Link from "next/link";
import { mrcWindowOf, SharedTierRecommendationPanel, SharedTierWindows } from "@/components/analytics/SharedTier";
import { WorkingSetPanels } from "@/components/analytics/WorkingSetPanels";
import { getCluster, getWorkingSetHistory } from "@/lib/analytics-api";
import { formatBytes, formatCount } from "@/lib/format";
import { definePage } from "@/lib/page";
import { parseRange } from "@/lib/time-range";

export const metadata: Metadata = { title: "Cluster" };

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
  const mrcWindow = mrcWindowOf(cluster.windows);
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
      {r ? <SharedTierRecommendationPanel recommendation={r} volumesRecommendedBytes={cluster.volumes_recommended_tier_bytes} testIdPrefix="cluster" /> : null}
      <SharedTierWindows windows={cluster.windows} />
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
