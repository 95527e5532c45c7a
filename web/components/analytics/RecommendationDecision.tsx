import { DEFAULT_EVICTION, EVICTIONS, type Eviction } from "@tierwise/common/contracts";
import { RowAction } from "@/components/AdminBlocks";
import { applyRecommendation, dismissRecommendation } from "@/app/recommendations/[volumeId]/actions";

const EVICTION_LABELS: Record<Eviction, string> = { lru: "LRU", "s3-fifo": "S3-FIFO", arc: "ARC", "2q": "2Q", sieve: "SIEVE" };

/**
 * Apply (the recommendation becomes the volume's desired policy, with the eviction policy it was
 * predicted for unless the admin picks another) and Dismiss, for an open recommendation and a role
 * that may change it (recommendations.write).
 */
export function RecommendationDecision({ volumeId, createdAt, eviction, status, canWrite }: { volumeId: string; createdAt: string; eviction: Eviction | null; status: string; canWrite: boolean }) {
  if (status !== "open") return null;
  if (!canWrite) return <p className="muted small">Applying or dismissing needs the admin or owner role.</p>;
  return (
    <div className="decision" data-testid="decision">
      <RowAction action={applyRecommendation} id={volumeId} label="Apply">
        <input type="hidden" name="created_at" value={createdAt} />
        <label>
          Eviction{" "}
          <select name="eviction" defaultValue={eviction ?? DEFAULT_EVICTION}>
            {EVICTIONS.map((eviction) => (
              <option key={eviction} value={eviction}>
                {EVICTION_LABELS[eviction]}
              </option>
            ))}
          </select>
        </label>
      </RowAction>
      <RowAction action={dismissRecommendation} id={volumeId} label="Dismiss">
        <label>
          Reason <input name="reason" maxLength={500} placeholder="optional" />
        </label>
      </RowAction>
    </div>
  );
}
