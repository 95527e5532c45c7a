import type { Metadata } from "next";
import "@/app/analytics.css";
import Link from "next/link";
import { DataTable } from "@/components/AdminBlocks";
import { NameOrId } from "@/components/NameOrId";
import { listRecommendations } from "@/lib/analytics-api";
import { formatBytes, formatPercent, formatRate, formatTimestamp } from "@/lib/format";
import { definePage } from "@/lib/page";

export const metadata: Metadata = { title: "Recommendations" };

/** /recommendations: every volume's current tier recommendation with its status, newest first; volumes by name where known. */
export default definePage({ permission: "recommendations.read" }, async () => {
  const page = await listRecommendations();
  return (
    <>
      <h1>Recommendations</h1>
      <DataTable
        testId="recommendations"
        caption="Tier recommendations"
        columns={["Volume", "Status", "Tier", "Policy", "#Predicted hit ratio", "#Offloaded", "#Measured", "Since"]}
        empty="No recommendations yet: they appear once a volume's working set and miss ratio curve are known."
        rows={page.data.map((r) => (
          <tr key={r.volume_id} data-testid="recommendation-row" data-volume-id={r.volume_id}>
            <th scope="row">
              <Link href={`/recommendations/${r.volume_id}`}>
                <NameOrId name={r.display_name} id={r.volume_id} kind="volume" />
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
            <td className="num">{formatPercent(r.predicted_hit_ratio)}</td>
            <td className="num">{formatRate(r.offloaded_bytes_per_second)}</td>
            <td className="num">{formatPercent(r.measured_hit_ratio)}</td>
            <td>{formatTimestamp(r.created_at)}</td>
          </tr>
        ))}
      />
    </>
  );
});
