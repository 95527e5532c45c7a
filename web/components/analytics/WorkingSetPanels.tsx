import { MissRatioCurveChart } from "@/components/charts/MissRatioCurveChart";
import type { WorkingSetHistory } from "@/lib/analytics-schemas";
import type { MissRatioCurve } from "@/lib/api-schemas";
import { formatBytes, formatPercent } from "@/lib/format";
import type { TimeRange } from "@/lib/time-range";
import { RangePicker } from "./RangePicker";
import { WorkingSetChart } from "./WorkingSetChart";

interface WorkingSetPanelsProps {
  /** The page's path, for the range picker's links. */
  path: string;
  range: TimeRange;
  history: WorkingSetHistory;
  mrc: MissRatioCurve | null;
  /** Capacity of the tier in use now, bytes; 0 or null: unknown (no mark). */
  currentBytes: number | null;
  /** Recommended tier size, bytes, or null. */
  recommendedBytes: number | null;
  /** What the recommended size is, after "recommended" in the MRC's caption (e.g. "(its volumes' added up)"). */
  recommendedNote?: string;
}

/**
 * The two working-set panels of a volume or a cluster: working set size over time (with the
 * range picker) and the miss ratio curves with the current and recommended tier marked.
 */
export function WorkingSetPanels({ path, range, history, mrc, currentBytes, recommendedBytes, recommendedNote = "" }: WorkingSetPanelsProps) {
  const current = currentBytes || null;
  return (
    <>
      <section className="panel" aria-labelledby="wss">
        <h2 id="wss">Working set size over time</h2>
        <RangePicker path={path} range={range} />
        {history.points.length > 0 ? (
          <WorkingSetChart history={history} capacityBytes={current} recommendedBytes={recommendedBytes} />
        ) : (
          <p className="muted">No working-set estimates in this range (the 1-hour window&apos;s estimates are kept once a minute).</p>
        )}
      </section>
      <MissRatioCurvePanel mrc={mrc} currentBytes={currentBytes} recommendedBytes={recommendedBytes} recommendedNote={recommendedNote} />
    </>
  );
}

/**
 * The miss ratio curve panel of a volume, a cluster or a host: every eviction policy's curve with
 * the current and recommended tier marked.
 */
export function MissRatioCurvePanel({ mrc, currentBytes, recommendedBytes, recommendedNote = "" }: Pick<WorkingSetPanelsProps, "mrc" | "currentBytes" | "recommendedBytes" | "recommendedNote">) {
  const current = currentBytes || null;
  return (
    <section className="panel" aria-labelledby="mrc">
      <h2 id="mrc">Miss ratio curve</h2>
      {mrc && mrc.points.length > 0 ? (
        <>
          <MissRatioCurveChart points={mrc.points} curves={mrc.curves} recommendedBytes={recommendedBytes} currentBytes={current} />
          <p className="muted small">
            {mrc.curves.length > 0 ? "Every eviction policy of the agent's cache (miniature simulations beside the LRU curve)" : "LRU"}, {mrc.method}, {formatPercent(mrc.sampling_rate)} of blocks sampled. Current tier {formatBytes(current)}, recommended {formatBytes(recommendedBytes)}
            {recommendedNote}.
          </p>
        </>
      ) : (
        <p className="muted">No miss ratio curve yet: it needs sampled block references from the agent.</p>
      )}
    </section>
  );
}
