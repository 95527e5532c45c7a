import type { PolicyEffect, PolicyEffectSide, PolicyEffectVerdict } from "@/lib/analytics-schemas";
import { formatCores, formatCount, formatDuration, formatLatency, formatPercent, formatTimestamp } from "@/lib/format";

/**
 * Each verdict's badge (docs/workload.md "Storage-bound CPU"): work getting done is the calm,
 * good reading; CPU per I/O up the one worth a look; the rest are neutral.
 */
const VERDICTS: Record<PolicyEffectVerdict, { label: string; tone: "ok" | "warn" | "muted" }> = {
  work_done: { label: "Work getting done", tone: "ok" },
  latency_down: { label: "Latency down", tone: "muted" },
  cpu_per_io_up: { label: "CPU per I/O up", tone: "warn" },
  latency_up: { label: "Latency up", tone: "muted" },
  no_change: { label: "No change", tone: "muted" },
  insufficient_data: { label: "Not enough data yet", tone: "muted" },
};

/** The before/after table's rows: a figure's name and how a side writes it ("—" for a side without it). */
const FIGURES: [string, (side: PolicyEffectSide) => string][] = [
  ["Latency p50", (s) => formatLatency(s.latency_p50_us)],
  ["IOPS", (s) => formatCount(s.iops)],
  ["Host CPU busy", (s) => formatPercent(s.host_busy)],
  ["Host iowait", (s) => formatPercent(s.host_iowait)],
  ["Consumer CPU", (s) => formatCores(s.consumer_cores)],
  ["CPU per I/O", (s) => formatLatency(s.cpu_us_per_io)],
];

/**
 * How the volume's latency and CPU moved across its latest applied policy change (GET
 * /v1/volumes/{id}/policy-effect): the api's verdict as a badge, its sentence, and the figures of
 * the span before and after (no table while neither side has one); a short note when no policy
 * was applied yet. The api's strings are
 * drawn as text.
 */
export function PolicyEffectReading({ effect }: { effect: PolicyEffect | null }) {
  if (!effect) {
    return (
      <p className="muted small" data-testid="policy-effect-none">
        No policy applied yet: once the agent applies one, its effect on latency and CPU is read here.
      </p>
    );
  }
  const verdict = VERDICTS[effect.verdict];
  const side = (s: PolicyEffectSide | null, figure: (side: PolicyEffectSide) => string) => (s ? figure(s) : "—");
  return (
    <div className="policy-effect" data-testid="policy-effect" data-verdict={effect.verdict}>
      <h3>Latest policy change</h3>
      <p className="policy-effect__head">
        <span className={`badge badge--${verdict.tone}`} data-testid="policy-effect-verdict">
          {verdict.label}
        </span>
        <span className="muted small" data-testid="policy-effect-applied">
          version {effect.policy_version}, applied {formatTimestamp(effect.applied_at)}; {formatDuration(effect.span_seconds)} after against as long before
        </span>
      </p>
      <p className="explanation" data-testid="policy-effect-statement">
        {effect.statement}
      </p>
      {(effect.before || effect.after) && (
        <div className="table-scroll">
          <table className="table compact" data-testid="policy-effect-table">
            <caption className="visually-hidden">Before and after policy version {effect.policy_version}</caption>
            <thead>
              <tr>
                <th scope="col">Figure</th>
                <th scope="col" className="num">
                  Before
                </th>
                <th scope="col" className="num">
                  After
                </th>
              </tr>
            </thead>
            <tbody>
              {FIGURES.map(([name, figure]) => (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td className="num">{side(effect.before, figure)}</td>
                  <td className="num">{side(effect.after, figure)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
