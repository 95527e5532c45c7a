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
 *   -> {samples, statuses, latency, verdicts: [{process, measure, firstMiB, lastMiB, minMiB, maxMiB,
 *       slopeMiBPerMin, projectedMiB, liveHeapStartMiB, liveHeapEndMiB, grows}], grew}
 */
import { memoryVerdicts, memoryWatch } from './memory.mjs';
import { openLoop } from './open-loop.mjs';

export async function soak({ url, corpora, seconds, rate, pids, sampleSeconds = 10, warmupSeconds = 60, maxGrowthMiB = 64 }) {
  const watch = memoryWatch(pids);
  const samples = [];
  const liveHeap = { start: {}, end: {} };
  const started = performance.now();
  const sample = async () => {
    const row = await watch.sample(Math.round((performance.now() - started) / 1000));
    samples.push(row);
    console.log(JSON.stringify(row));
  };
  await sample();
  const sampler = setInterval(sample, sampleSeconds * 1000);
  let warm = Promise.resolve();
  const warmup = setTimeout(() => { warm = watch.collectLive(liveHeap.start); }, warmupSeconds * 1000);
  const { statuses, latency } = await openLoop({ url, corpora, seconds, rate });
  clearInterval(sampler);
  clearTimeout(warmup);
  await warm;
  await sample();
  await watch.collectLive(liveHeap.end);

  const verdicts = memoryVerdicts({ samples, names: Object.keys(pids), warmupSeconds, liveHeap, maxGrowthMiB });
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
