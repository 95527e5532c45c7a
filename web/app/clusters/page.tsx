import type { Metadata } from "next";
import Link from "next/link";
import { listClusters } from "@/lib/analytics-api";
import { formatBytes, formatCount, formatTimestamp } from "@/lib/format";
import { definePage } from "@/lib/page";

export const metadata: Metadata = { title: "Clusters" };

/**
 * /clusters: the tenant's clusters (hosts sharing one tier, agent option --cluster) with their
 * hosts, volumes, working set of the merged stream and their tier, current and recommended.
 */
export default definePage({ permission: "volumes.read" }, async () => {
  const page = await listClusters();
  return (
    <>
      <h1>Clusters</h1>
      <p className="muted">
        Hosts that share a tier. The working set is that of the volumes&apos; sampled references merged in time order, since the stream started; the current tier adds
        up the volumes&apos; tiers; the recommended one is a single tier shared by them, recommended from that merged stream.
      </p>
      {page.data.length === 0 ? (
        <p className="muted">No cluster yet: run the agents with --cluster NAME on the hosts that share a tier.</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="cluster-table">
            <caption className="visually-hidden">Clusters with their hosts, volumes, working set and tier</caption>
            <thead>
              <tr>
                <th scope="col">Cluster</th>
                <th scope="col">Hosts</th>
                <th scope="col">Volumes</th>
                <th scope="col">Working set</th>
                <th scope="col">Current tier</th>
                <th scope="col">Recommended tier</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((c) => (
                <tr key={c.cluster_id} data-testid="cluster-row" data-cluster-id={c.cluster_id}>
                  <th scope="row">
                    <Link href={`/clusters/${c.cluster_id}`}>
                      <code>{c.cluster_id}</code>
                    </Link>
                  </th>
                  <td>{formatCount(c.hosts)}</td>
                  <td>{formatCount(c.volumes)}</td>
                  <td>{formatBytes(c.wss_bytes)}</td>
                  <td>{formatBytes(c.capacity_bytes || null)}</td>
                  <td>{formatBytes(c.recommended_tier_bytes)}</td>
                  <td>{formatTimestamp(c.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.next_cursor && <p className="muted small">The first {page.data.length} clusters are shown.</p>}
    </>
  );
});
