import type { Metadata } from "next";
import "@/app/analytics.css";
import Link from "next/link";
import { WorkingSetPanels } from "@/components/analytics/WorkingSetPanels";
import { getCluster, getWorkingSetHistory } from "@/lib/analytics-api";
import { formatBytes, formatCount, formatPercent } from "@/lib/format";
import { definePage } from "@/lib/page";
import { parseRange } from "@/lib/time-range";

export const metadata: Metadata = { title: "Cluster" };

/** The MRC drawn: the longest window with a curve (everything since the start first). */
const MRC_WINDOWS = ["all", "7d", "24h", "1h"] as const;

/**
 * /clusters/[clusterId]: a cluster's hosts, volumes and working set per window, its working set
 * size over time and the MRC of its merged stream with the current and recommended tier marked.
 */
export default definePage<{ clusterId: string }>({ permission: "volumes.read" }, async ({ params, searchParams }) => {
  const { clusterId } = await params;
  const range = parseRange(await searchParams, "7d");
  const [cluster, history] = await Promise.all([getCluster(clusterId), getWorkingSetHistory("clusters", clusterId, range)]);
  const mrcWindow = MRC_WINDOWS.map((w) => cluster.windows.find((x) => x.window === w)).find((x) => x?.mrc);
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
        recommendedNote=" (its volumes' recommendations added up)"
      />
    </>
  );
});
