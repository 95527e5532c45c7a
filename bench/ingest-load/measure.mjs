/**
 * One closed-loop measurement of a server: the load of load.mjs, and the CPU time its process
 * tree (procstat.mjs) and other process trees of the stack spent meanwhile.
 *
 * measure({url, kinds, pid, corpora, seconds, others}) ->
 *   {ok, seconds, cpuSeconds, perSecond, perCpuSecond, othersCpu: {name: CPU-s}, result}
 *   ok: requests answered 200; perCpuSecond: ok / cpuSeconds of `pid`'s tree
 *   others: {name: pid} of trees measured beside it (Kafka, PostgreSQL, the jobs)
 * row(label, m) -> the table row run.mjs prints for one measurement
 */
import { runLoad } from './load.mjs';
import { treeUsage } from './procstat.mjs';

export async function measure({ url, kinds, pid, corpora, seconds, others = {} }) {
  const cpu = () => ({ self: treeUsage(pid).cpuSeconds, ...Object.fromEntries(Object.entries(others).map(([n, p]) => [n, treeUsage(p).cpuSeconds])) });
  const before = cpu();
  const result = await runLoad({ url, corpora, seconds, kinds });
  const after = cpu();
  const ok = result.statuses[200] ?? 0;
  const cpuSeconds = after.self - before.self;
  const othersCpu = Object.fromEntries(Object.keys(others).map((n) => [n, after[n] - before[n]]));
  return { ok, seconds: result.seconds, cpuSeconds, perSecond: ok / result.seconds, perCpuSecond: ok / cpuSeconds, othersCpu, result };
}

export function row(label, m) {
  const { latency, statuses } = m.result;
  return {
    target: label,
    'batches/s': m.perSecond.toFixed(0),
    'batches/CPU-s': m.perCpuSecond.toFixed(0),
    'server CPU %': ((100 * m.cpuSeconds) / m.seconds).toFixed(0),
    'p50 ms': (latency.getValueAtPercentile(50) / 1000).toFixed(2),
    'p99 ms': (latency.getValueAtPercentile(99) / 1000).toFixed(2),
    'max ms': (latency.maxValue / 1000).toFixed(1),
    statuses: JSON.stringify(statuses),
  };
}
