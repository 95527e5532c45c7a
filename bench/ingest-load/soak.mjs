/**
 * Soak: open-loop load at a fixed rate (open-loop.mjs) for a duration, sampling every
 * `sampleSeconds` the memory of each stack process tree (PSS and RSS, procstat.mjs) and, for
 * the JVMs (Flink, Kafka), their heap in use; the load average beside. The verdict per process:
 *
 * - PSS slope: least-squares slope of the tree's proportional set size over the samples after
 *   the warm-up (the first `warmupSeconds`), MiB per minute, and the growth it projects over
 *   that span (PSS, not the RSS sum: PostgreSQL's backends share its buffers);
 * - JVM live heap: heap in use right after a full collection (jcmd GC.run) at the end of the
 *   warm-up and at the end, so the garbage of the moment does not count.
 *
 * A process grows when either exceeds `maxGrowthMiB`. The warm-up should cover one pass over
 * the corpus: until then every batch brings new keys (volumes, intervals) into the jobs' state.
 *
 * soak({url, corpora, seconds, rate, pids, sampleSeconds, warmupSeconds, maxGrowthMiB})
 *   -> {samples, statuses, latency, verdicts: [{process, firstMiB, lastMiB, minMiB, maxMiB,
 *       slopeMiBPerMin, projectedMiB, liveHeapStartMiB, liveHeapEndMiB, grows}], grew}
 */
import { loadavg } from 'node:os';
import { heapUsedBytes, jvmPid, liveHeapBytes } from './jvm.mjs';
import { openLoop } from './open-loop.mjs';
import { treeUsage } from './procstat.mjs';

const MIB = 1024 * 1024;

/** Least-squares slope of ys over xs (same length >= 2). */
function slope(xs, ys) {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

export async function soak({ url, corpora, seconds, rate, pids, sampleSeconds = 10, warmupSeconds = 60, maxGrowthMiB = 64 }) {
  const jvms = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, jvmPid(pid)]).filter(([, p]) => p));
  const samples = [];
  const liveHeap = { start: {}, end: {} };
  const started = performance.now();
  const sample = async () => {
    const row = { t_s: Math.round((performance.now() - started) / 1000), load1: Number(loadavg()[0].toFixed(2)) };
    for (const [name, pid] of Object.entries(pids)) {
      const usage = treeUsage(pid);
      row[`${name} MiB`] = Math.round(usage.pssBytes / MIB);
      row[`${name} RSS MiB`] = Math.round(usage.rssBytes / MIB);
    }
    for (const [name, pid] of Object.entries(jvms)) {
      row[`${name} heap MiB`] = await heapUsedBytes(pid).then((h) => Math.round(h.usedBytes / MIB), () => null);
    }
    samples.push(row);
    console.log(JSON.stringify(row));
  };
  const collectLive = async (into) => {
    for (const [name, pid] of Object.entries(jvms)) into[name] = Math.round((await liveHeapBytes(pid)) / MIB);
  };
  await sample();
  const sampler = setInterval(sample, sampleSeconds * 1000);
  let warm = Promise.resolve();
  const warmup = setTimeout(() => { warm = collectLive(liveHeap.start); }, warmupSeconds * 1000);
  const { statuses, latency } = await openLoop({ url, corpora, seconds, rate });
  clearInterval(sampler);
  clearTimeout(warmup);
  await warm;
  await sample();
  await collectLive(liveHeap.end);

  const steady = samples.filter((s) => s.t_s >= warmupSeconds);
  const minutes = (steady.at(-1).t_s - steady[0].t_s) / 60;
  const verdicts = Object.keys(pids).map((name) => {
    const key = `${name} MiB`;
    const perMin = slope(steady.map((s) => s.t_s / 60), steady.map((s) => s[key]));
    const v = {
      process: name,
      firstMiB: steady[0][key],
      lastMiB: steady.at(-1)[key],
      minMiB: Math.min(...steady.map((s) => s[key])),
      maxMiB: Math.max(...steady.map((s) => s[key])),
      slopeMiBPerMin: Number(perMin.toFixed(2)),
      projectedMiB: Number((perMin * minutes).toFixed(1)),
      liveHeapStartMiB: liveHeap.start[name] ?? null,
      liveHeapEndMiB: liveHeap.end[name] ?? null,
    };
    const heapGrowth = v.liveHeapStartMiB === null ? 0 : v.liveHeapEndMiB - v.liveHeapStartMiB;
    v.grows = v.projectedMiB > maxGrowthMiB || heapGrowth > maxGrowthMiB;
    return v;
  });
  const sent = Object.values(statuses).reduce((a, b) => a + b, 0);
  console.log(`soak: ${seconds} s at ${rate} batches/s offered; ${(sent / seconds).toFixed(1)} answered/s; statuses ${JSON.stringify(statuses)};`
    + ` latency p50 ${(latency.getValueAtPercentile(50) / 1000).toFixed(1)} ms, p99 ${(latency.getValueAtPercentile(99) / 1000).toFixed(1)} ms;`
    + ` load average (1 min) ${Math.min(...samples.map((s) => s.load1))}–${Math.max(...samples.map((s) => s.load1))},`
    + ` mean ${(samples.reduce((a, s) => a + s.load1, 0) / samples.length).toFixed(1)}`);
  console.table(verdicts);
  const grew = verdicts.filter((v) => v.grows);
  if (grew.length) {
    console.error(`soak: MEMORY GROWS in ${grew.map((v) => v.process).join(', ')}: more than ${maxGrowthMiB} MiB over the run`);
  } else {
    console.log(`soak: memory flat in every process (no PSS trend or live-heap growth above ${maxGrowthMiB} MiB)`);
  }
  return { samples, statuses, latency, verdicts, grew: grew.length > 0 };
}
