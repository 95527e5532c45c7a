/**
 * The fleet run's outcome: its counts and figures as one object (printed, and written with
 * --out), and the goals it missed.
 *
 * summarize({args, hosts, volumesPerHost, sender, probes, rows, lagAtEnd, lagAfterDrain, memory, costs})
 *   -> {summary, failures: string[]}
 *   lost: offered minus accepted, per stream (refused, dropped from the full spool, or still
 *   queued after the drain); failures: any lost, rows missing in volume_metrics_10s, the jobs
 *   still behind after the drain, a process whose memory grows, freshness p99 over the limit
 *   (an interval never seen counts as infinitely late)
 */
import { percentile } from './report.mjs';

export function summarize({ args, hosts, volumesPerHost, sender, probes, rows, lagAtEnd, lagAfterDrain, memory, costs }) {
  const { metrics, refs } = sender.stats;
  const lost = { metrics: metrics.queued - metrics.accepted, refs: refs.queued - refs.accepted };
  // An interval never seen counts as infinitely late (JSON: null), so a stalled job shows in p99.
  const seen = probes.samples.concat(Array(probes.pendingCount()).fill(Infinity));
  const freshness = Object.fromEntries([50, 90, 99, 100].map((p) => [`p${p}`, percentile(seen, p)]));
  const summary = {
    hosts, volumesPerHost, volumes: hosts * volumesPerHost, minutes: Number(args.minutes), warmupMinutes: Number(args['warmup-minutes']),
    offered: { metricsRequests: metrics.queued, referenceRequests: refs.queued, referenceBatches: refs.batches },
    accepted: {
      metricsRequests: metrics.accepted, volumeIntervals: metrics.volumeIntervals,
      referenceRequests: refs.accepted, referenceBatches: refs.acceptedBatches, references: refs.references,
    },
    lost, spoolFull: { metrics: metrics.spoolFull, refs: refs.spoolFull }, lagAtEnd, lagAfterDrain,
    refusals: sender.stats.refusals, retries: { metrics: metrics.retries, refs: refs.retries }, rows,
    latencyMs: { metricsP50: metrics.latency.getValueAtPercentile(50) / 1000, metricsP99: metrics.latency.getValueAtPercentile(99) / 1000 },
    freshnessSeconds: { ...freshness, samples: probes.samples.length, notSeen: probes.pendingCount(), pollErrors: probes.errors },
    memory, costs: costs.rows,
  };
  const failures = [
    lost.metrics + lost.refs > 0 && `${lost.metrics} metrics requests and ${lost.refs} reference requests lost`,
    rows.missing > 0 && `${rows.missing} accepted volume-intervals not in volume_metrics_10s`,
    Object.values(lagAfterDrain).some((n) => n > 0) && `the jobs were still behind after the drain: ${JSON.stringify(lagAfterDrain)} records`,
    memory.some((v) => v.grows) && `memory grows in ${memory.filter((v) => v.grows).map((v) => v.process).join(', ')}`,
    !(freshness.p99 <= Number(args['max-freshness-s'])) && `freshness p99 ${freshness.p99} s (limit ${args['max-freshness-s']} s)`,
  ].filter(Boolean);
  return { summary, failures };
}
