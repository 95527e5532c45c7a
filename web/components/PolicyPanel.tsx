import type { VolumePolicy } from "@/lib/api-schemas";
import { formatBytes, formatTimestamp } from "@/lib/format";

const MEDIA: Record<VolumePolicy["media"], string> = { ram: "RAM", nvme: "NVMe flash" };

function modeLabel(p: VolumePolicy): string {
  return p.mode === "write-back" ? `write-back (WB+${p.write_back_copies ?? 0})` : "write-through";
}

/** What the agent reports of the desired version: in effect, applied with problems, an older version, or nothing yet. */
function appliedState(p: VolumePolicy): string {
  if (p.applied_version === null) return "not applied yet: the agent has not reported this volume's policy";
  if (p.applied_version !== p.version) return `version ${p.applied_version} applied; waiting for the agent to apply version ${p.version}`;
  return p.applied_error === null ? `version ${p.version} in effect` : `version ${p.version} applied with problems`;
}

/** The volume's desired cache policy beside what its agent applied, and when (policy pull, docs/policies.md). */
export function PolicyPanel({ policy: p }: { policy: VolumePolicy | null }) {
  if (!p) {
    return (
      <p className="muted" data-testid="policy-empty">
        No policy set: the volume runs what its agent's volumes file says. Apply a recommendation, or set one through the API.
      </p>
    );
  }
  return (
    <div data-testid="policy">
      <dl className="facts">
        <div>
          <dt>Desired</dt>
          <dd data-testid="policy-desired">
            {modeLabel(p)}, {formatBytes(p.tier_bytes)} {MEDIA[p.media]}, {p.eviction}
          </dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd>
            {p.version} ({p.source}, {formatTimestamp(p.updated_at)})
          </dd>
        </div>
        <div>
          <dt>Applied</dt>
          <dd data-testid="policy-applied" data-in-sync={String(p.in_sync)}>
            {appliedState(p)}
            {p.applied_at && <> · {formatTimestamp(p.applied_at)}</>}
          </dd>
        </div>
      </dl>
      {p.applied_error && (
        <p className="explanation" data-testid="policy-error">
          The agent could not apply: {p.applied_error}
        </p>
      )}
    </div>
  );
}
