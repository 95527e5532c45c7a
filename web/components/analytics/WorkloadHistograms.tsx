"use client";

import { HistogramChart, type HistogramSeries } from "@/components/charts/HistogramChart";
import { DIRECTION_COLOURS, PALETTE } from "@/components/charts/echarts";
import { DIRECTION_NOUNS, DIRECTIONS, type Direction } from "@/lib/direction";
import { vscsiBuckets } from "@/lib/vscsi-buckets";
import type { Workload } from "@/lib/workload-schemas";

/**
 * The families drawn, in order, with their unit, what they show and why one may be empty; an
 * `imported` family (vscsiStats' own latency, only in imported output) is drawn only when the
 * volume has it.
 */
const FAMILIES = [
  {
    key: "seek_distance",
    title: "Seek distance",
    axis: "Distance from where the previous command ended (512-byte sectors)",
    what: "1 is sequential; small distances are near, large ones random. The closest of the previous 16 shows interleaved sequential streams as near.",
    noun: "seek distances",
  },
  {
    key: "outstanding",
    title: "Outstanding I/Os at issue",
    axis: "I/Os in flight when a command is issued, itself included",
    what: "How deep the queue is when each command arrives.",
    noun: "outstanding I/Os",
    why: "the agent counts them only where it sees each I/O complete (serve, or a replayed trace that records completion times)",
  },
  {
    key: "interarrival_us",
    title: "Interarrival time",
    axis: "Time since the previous command was issued (µs)",
    what: "Short times are bursts; long ones idle gaps.",
    noun: "interarrival times",
  },
  {
    key: "latency_us",
    title: "Latency, imported from vscsiStats",
    axis: "Front-end latency as vscsiStats measured it on the host (µs)",
    what: "vscsiStats' latency buckets from the imported output; the Performance view has the series of latency percentiles.",
    noun: "imported latencies",
    imported: true,
  },
] as const;

type Family = (typeof FAMILIES)[number];

/** The series of one family for the direction; seek distance adds the closest-of-16 histogram (all commands only). */
function seriesOf(workload: Workload, key: Family["key"], direction: Direction): HistogramSeries[] {
  const counts = workload[key][direction];
  const name = key === "seek_distance" ? `From the previous ${DIRECTION_NOUNS[direction]}` : DIRECTIONS[direction];
  const own: HistogramSeries[] = counts ? [{ name, counts, color: DIRECTION_COLOURS[direction] }] : [];
  const closest = workload.seek_distance_closest.all;
  if (key !== "seek_distance" || direction !== "all" || !closest) return own;
  return [...own, { name: "From the closest of the previous 16", counts: closest, color: PALETTE.current }];
}

/**
 * A volume's vscsiStats histograms over the period (docs/workload.md) for one direction: seek
 * distance (sectors, with the closest of the previous 16), outstanding I/Os at issue,
 * interarrival time (µs) and, for a volume imported from vscsiStats output, its latency (µs),
 * each as bars with its data table, or one line saying it is empty.
 */
export function WorkloadHistograms({ workload, direction, subject }: { workload: Workload; direction: Direction; subject: string }) {
  const which = DIRECTIONS[direction].toLowerCase();
  return (
    <>
      {FAMILIES.map((f) => {
        const { all, read, write } = workload[f.key];
        if ("imported" in f && !all && !read && !write) return null;
        const series = seriesOf(workload, f.key, direction);
        return (
          <section key={f.key} className="panel" aria-labelledby={`family-${f.key}`} data-testid={`family-${f.key}`}>
            <h2 id={`family-${f.key}`}>{f.title}</h2>
            {series.length > 0 ? (
              <>
                <p className="muted small">{f.what}</p>
                <HistogramChart
                  buckets={vscsiBuckets(workload[f.key].bounds)}
                  series={series}
                  axis={f.axis}
                  label={`${f.title} of ${subject} (${which}), share of ${DIRECTION_NOUNS[direction]}s per vscsiStats bucket: ${series.map((s) => s.name).join(" and ")}`}
                  testId={`histogram-${f.key}`}
                />
              </>
            ) : (
              <p className="muted" data-testid="family-empty">
                No {f.noun} reported for {which} in this range{"why" in f ? `: ${f.why}` : ""}.
              </p>
            )}
            {f.key === "seek_distance" && direction !== "all" && series.length > 0 && (
              <p className="muted small">The closest of the previous 16 is kept over reads and writes together: choose Reads and writes to see it.</p>
            )}
          </section>
        );
      })}
    </>
  );
}
