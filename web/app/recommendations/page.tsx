import type { Metadata } from "next";
import "@/app/analytics.css";
import Link from "next/link";
import { listRecommendations } from "@/lib/analytics-api";
import { formatBytes, formatPercent, formatRate, formatTimestamp } from "@/lib/format";
import { definePage } from "@/lib/page";

export const metadata: Metadata = { title: "Recommendations" };

/** /recommendations: every volume's current tier recommendation with its status, newest first. */
export default definePage({ permission: "recommendations.read" }, async () => {
  const page = await listRecommendations();
  return (
    <>
      <h1>Recommendations</h1>
      {page.data.length === 0 ? (
        <p className="muted">No recommendations yet: they appear once a volume&apos;s working set and miss ratio curve are known.</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="recommendations">
            <caption className="visually-hidden">Tier recommendations</caption>
            <thead>
              <tr>
                <th scope="col">Volume</th>
                <th scope="col">Status</th>
                <th scope="col">Tier</th>
                <th scope="col">Policy</th>
                <th scope="col">Predicted hit ratio</th>
                <th scope="col">Offloaded</th>
                <th scope="col">Measured</th>
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {page.data.map((r) => (
                <tr key={r.volume_id} data-testid="recommendation-row" data-volume-id={r.volume_id}>
                  <th scope="row">
                    <Link href={`/recommendations/${r.volume_id}`}>
                      <code>{r.volume_id}</code>
                    </Link>
                  </th>
                  <td>
                    <span className={`status status--${r.status}`}>{r.status}</span>
                  </td>
                  <td>
                    {formatBytes(r.tier_bytes)} {r.media.toUpperCase()}
                  </td>
                  <td>
                    {r.policy}
                    {r.replicas > 0 ? ` +${r.replicas}` : ""}
                  </td>
                  <td>{formatPercent(r.predicted_hit_ratio)}</td>
                  <td>{formatRate(r.offloaded_bytes_per_second)}</td>
                  <td>{formatPercent(r.measured_hit_ratio)}</td>
                  <td>{formatTimestamp(r.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
});
