import type { Policy } from "@/lib/analytics-schemas";
import { formatBytes, formatTimestamp } from "@/lib/format";

/** After the applied version: in sync, applied with the agent's problems, or an older version. */
function appliedNote(policy: Policy): string {
  if (policy.in_sync) return " (in sync)";
  if (policy.applied_version === policy.version) return ` (with problems: ${policy.applied_error})`;
  return " (an older version; the new one is pending)";
}

/** A volume's desired cache policy and what its agent applied (version, time), or why nothing shows. */
export function PolicyState({ policy }: { policy: Policy | null }) {
  if (!policy) return <p className="muted" data-testid="policy-none">No desired policy yet: apply the recommendation or set one.</p>;
  const mode = policy.mode === "write-back" ? `write-back (WB+${policy.write_back_copies ?? 0})` : "write-through";
  return (
    <dl className="facts" data-testid="policy" data-version={policy.version} data-applied-version={policy.applied_version ?? ""}>
      <div>
        <dt>Desired</dt>
        <dd data-testid="policy-desired">
          v{policy.version}: {formatBytes(policy.tier_bytes)} {policy.media.toUpperCase()}, {mode}, {policy.eviction} ({policy.source}, {formatTimestamp(policy.updated_at)})
        </dd>
      </div>
      <div>
        <dt>Applied</dt>
        <dd data-testid="policy-applied">
          {policy.applied_version == null
            ? "not yet: the agent applies it at its next policy pull"
            : `v${policy.applied_version} at ${formatTimestamp(policy.applied_at)}${appliedNote(policy)}`}
        </dd>
      </div>
    </dl>
  );
}
