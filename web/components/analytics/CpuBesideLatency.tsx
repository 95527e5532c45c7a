import { CpuLatencyChart } from "@/components/charts/CpuLatencyChart";
import type { PolicyEffect, Series } from "@/lib/analytics-schemas";
import { PolicyEffectReading } from "./PolicyEffectReading";

/** What the volume's consumer is, by the kind the agent reported. */
const CONSUMERS = { process: "the processes attached to the volume's export", cgroup: "the volume's cgroup" } as const;

/**
 * Storage-bound CPU (docs/workload.md "Storage-bound CPU", issue 18): the volume's VM-observed
 * latency beside its host's CPU over the page's range, then how its latest policy change moved
 * both. Slow storage holds CPU down, so CPU that rises as latency falls is work getting done.
 * Without CPU time in the range (a replay, an import, an agent before 2026-11) one line says where
 * it comes from instead of an empty chart.
 */
export function CpuBesideLatency({ series, effect, subject }: { series: Series; effect: PolicyEffect | null; subject: string }) {
  const cpu = series.points.flatMap((p) => (p.cpu ? [p.cpu] : []));
  const kind = cpu.filter((c) => c.consumer_kind).at(-1)?.consumer_kind;
  return (
    <section className="panel" aria-labelledby="cpu-latency" data-testid="cpu-panel">
      <h2 id="cpu-latency">CPU beside latency</h2>
      {cpu.length > 0 ? (
        <>
          <CpuLatencyChart
            points={series.points.map((p) => ({ t: p.t, latency_p50_us: p.latency?.p50_us ?? null, cpu: p.cpu }))}
            stepSeconds={series.bucket_seconds}
            label={`VM-observed latency p50 of ${subject} beside its host's CPU busy and iowait${kind ? " and its consumer's CPU" : ""}, ${series.points.length} points of ${series.bucket_seconds} s`}
            testId="cpu-latency-chart"
          />
          <p className="muted small">
            CPU as a share of the host&apos;s {cpu.at(-1)!.host_cpus} CPUs{kind ? `; the consumer is ${CONSUMERS[kind]}` : ""}. Slow storage holds CPU down: CPU that rises as
            latency falls is work getting done; CPU per I/O that rises is the rise worth a look.
          </p>
        </>
      ) : (
        <p className="muted" data-testid="cpu-none">
          No CPU time in this range: the agent reports the host&apos;s and the consumer&apos;s CPU from <code>serve</code> (agent 2026-11 and later); replays, imports and
          older agents carry none.
        </p>
      )}
      <PolicyEffectReading effect={effect} />
    </section>
  );
}
