import { StatTile } from "@/components/StatTile";
import type { SharedTierRecommendation, SharedTierWindow } from "@/lib/analytics-schemas";
import { formatBytes, formatCount, formatPercent } from "@/lib/format";

interface SharedTierRecommendationPanelProps {
  recommendation: SharedTierRecommendation;
  /** Its volumes' own recommended tiers added up, bytes, or null. */
  volumesRecommendedBytes: number | null;
  /** Prefix of the test ids: "cluster" or "host". */
  testIdPrefix: "cluster" | "host";
}

/**
 * The tier recommended for a cluster or a host from the merged stream of its volumes: size, media,
 * write and eviction policy, the predicted hit ratio and tier writes, and why.
 */
export function SharedTierRecommendationPanel({ recommendation: r, volumesRecommendedBytes, testIdPrefix }: SharedTierRecommendationPanelProps) {
  return (
    <section className="panel" aria-labelledby="shared-tier">
      <h2 id="shared-tier">Recommended shared tier</h2>
      <p data-testid={`${testIdPrefix}-recommendation`}>
        {formatBytes(r.tier_bytes)} {r.media.toUpperCase()} {r.policy}
        {r.replicas > 0 ? ` +${r.replicas} peer` : ""}
        {r.eviction ? `, ${r.eviction.toUpperCase()} eviction` : ""}, for the {formatCount(r.volumes)} volumes together
        {volumesRecommendedBytes != null ? ` (a tier per volume would take ${formatBytes(volumesRecommendedBytes)} in all)` : ""}.
      </p>
      <div className="tiles" aria-label="Predicted effect">
        <StatTile testId={`${testIdPrefix}-predicted-hit-ratio`} label="Predicted hit ratio" value={formatPercent(r.predicted_hit_ratio)} detail={`achievable ${formatPercent(r.achievable_hit_ratio)}, target ${formatPercent(r.target_hit_ratio)}`} />
        <StatTile testId={`${testIdPrefix}-tier-writes`} label="Tier writes per day" value={r.tier_write_bytes_per_day == null ? "—" : formatBytes(r.tier_write_bytes_per_day)} detail={r.drive_writes_per_day == null ? "not predicted" : `${r.drive_writes_per_day.toFixed(1)} drive writes per day`} />
      </div>
      <p className="muted">{r.explanation}</p>
    </section>
  );
}

/** The working set of a shared tier's merged stream, a row per window. */
export function SharedTierWindows({ windows }: { windows: SharedTierWindow[] }) {
  return (
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
          {windows.map((w) => (
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
  );
}

/** The MRC drawn: the longest window with a curve (everything since the start first). */
const MRC_WINDOWS = ["all", "7d", "24h", "1h"] as const;

/** The window whose MRC a shared tier's page draws, or undefined when none has one. */
export function mrcWindowOf(windows: SharedTierWindow[]): SharedTierWindow | undefined {
  return MRC_WINDOWS.map((w) => windows.find((x) => x.window === w)).find((x) => x?.mrc);
}
