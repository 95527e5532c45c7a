import type { Recommendation } from "@/lib/api-schemas";
import { formatBytes, formatPercent, formatTimestamp } from "@/lib/format";

const MEDIA: Record<Recommendation["media"], string> = { ram: "RAM", nvme: "NVMe flash" };

/** The current tier recommendation: size, media, policy, predicted hit ratio, and why. */
export function RecommendationPanel({ recommendation: r }: { recommendation: Recommendation | null }) {
  if (!r) {
    return (
      <p className="muted" data-testid="recommendation-empty">
        No recommendation yet: it appears once the working set and miss ratio curve have been computed.
      </p>
    );
  }
  return (
    <div className="recommendation" data-testid="recommendation">
      <dl className="facts">
        <div>
          <dt>Tier size</dt>
          <dd data-testid="recommendation-size">{formatBytes(r.tier_bytes)}</dd>
        </div>
        <div>
          <dt>Media</dt>
          <dd>{MEDIA[r.media]}</dd>
        </div>
        <div>
          <dt>Policy</dt>
          <dd>{r.policy}</dd>
        </div>
        <div>
          <dt>Predicted hit ratio</dt>
          <dd>{formatPercent(r.predicted_hit_ratio)}</dd>
        </div>
        <div>
          <dt>Target / achievable</dt>
          <dd>
            {formatPercent(r.target_hit_ratio)} / {formatPercent(r.achievable_hit_ratio)}
          </dd>
        </div>
      </dl>
      <p className="explanation">{r.explanation}</p>
      <details>
        <summary>Inputs ({formatTimestamp(r.created_at)})</summary>
        <dl className="inputs">
          {Object.entries(r.inputs).map(([key, value]) => (
            <div key={key}>
              <dt>
                <code>{key}</code>
              </dt>
              <dd>
                <code>{typeof value === "string" ? value : JSON.stringify(value)}</code>
              </dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
}
