#!/usr/bin/env node
/**
 * Ingest against its real peer in paired rounds (issue 17): the OpenTelemetry Collector's
 * OTLP/HTTP receiver → Kafka exporter (peer.mjs: acks all, zstd, answered after Kafka's ack) and
 * ingest as the stack runs it (agent authentication, validation, dedup in PostgreSQL, Kafka
 * acks=all), on the same bodies, in the same run. Needs the local stack (`./tierwise up`).
 *
 *   bench/ingest-load/paired.sh --otelcol BIN [--rounds 5] [--seconds 20] [--agents 16]
 *                               [--warmup 30] [--trace FILE] [--peer-exporter kafka|nop]
 *
 * The bodies: what the real agent sends for the trace (capture.mjs), remapped per agent
 * (remap.mjs), metrics only: the collector cannot take Tierwise's reference batches.
 * One unreported warm-up of each (--warmup seconds: ingest's first rounds after a start are its
 * slowest, bench/results/2026-12-04-ingest-wire-validation.md), then N rounds in ABBA order (odd
 * rounds ingest first, even rounds the collector first), each target at closed-loop saturation
 * for --seconds. Per round: batches per CPU-second of each server's process tree (procstat.mjs)
 * and their ratio; beside it the CPU that Kafka, PostgreSQL and the stream jobs (if running:
 * paired.sh stops them for the rounds) spent in the same window (not counted for either). At
 * the end the medians, the median of the per-round ratios, and the records each side wrote to
 * Kafka per accepted batch (both write one record per volume).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { agentCorpora, die, ingestUp, pidOf, requireEnv, ROOT, seedTenant } from './bench-stack.mjs';
import { measure } from './measure.mjs';
import { PEER_TOPIC, startPeer, topicRecords } from './peer.mjs';

const INGEST_TOPIC = 'telemetry.metrics.v1';
const env = requireEnv();
const { values: args } = parseArgs({
  options: {
    otelcol: { type: 'string', default: env.OTELCOL_BIN },
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '20' },
    agents: { type: 'string', default: '16' },
    warmup: { type: 'string', default: '30' },
    trace: { type: 'string', default: path.join(env.TIERWISE_TRACES_DIR ?? path.resolve(ROOT, '../shared/traces'), 'cloudphysics_w_sample.csv') },
    'peer-exporter': { type: 'string', default: 'kafka' },
  },
});
if (!args.otelcol) die('no --otelcol BIN / $OTELCOL_BIN: an otelcol build with the otlp receiver and the kafka exporter (README.md)');
const ingestPid = pidOf('ingest');
if (!ingestPid || !(await ingestUp())) die(`ingest is not running at ${env.TIERWISE_INGEST_URL}; start the stack with ./tierwise up`);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const [rounds, seconds, agents] = [Number(args.rounds), Number(args.seconds), Number(args.agents)];
const others = Object.fromEntries(['kafka', 'postgres', 'stream-jobs'].map((n) => [n, pidOf(n)]).filter(([, p]) => p));
const workDir = mkdtempSync(path.join(tmpdir(), 'tierwise-ingest-paired-'));
let collector;
try {
  const tenant = await seedTenant();
  const { corpora } = await agentCorpora({ trace: args.trace, agents, workDir, tenant });
  collector = await startPeer(args.otelcol, workDir, args['peer-exporter']);
  const targets = {
    ingest: { url: env.TIERWISE_INGEST_URL, pid: ingestPid, topic: INGEST_TOPIC, accepted: 0 },
    otelcol: { url: collector.url, pid: collector.pid, topic: collector.exporter === 'kafka' ? PEER_TOPIC : null, accepted: 0 },
  };
  const records = async () => Object.fromEntries(await Promise.all(Object.entries(targets)
    .map(async ([name, t]) => [name, t.topic ? await topicRecords(collector.brokers, t.topic) : 0])));
  const recordsBefore = await records();
  const run = async (name, secs) => {
    const m = await measure({ url: targets[name].url, kinds: ['metrics'], pid: targets[name].pid, corpora, seconds: secs, others });
    targets[name].accepted += m.ok;
    return m;
  };
  console.log(`ingest vs otelcol otlp→${collector.exporter}, metrics-only bodies (the collector cannot take reference batches)`);
  console.log(`${agents} simulated agents, closed loop, ${rounds} paired rounds of ${seconds} s per target (ABBA), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  await run('ingest', Number(args.warmup));
  await run('otelcol', Number(args.warmup));
  const measurements = [];
  const pairs = [];
  for (let r = 1; r <= rounds; r++) {
    const order = r % 2 ? ['ingest', 'otelcol'] : ['otelcol', 'ingest'];
    const pair = {};
    for (const name of order) {
      const m = await run(name, seconds);
      pair[name] = m.perCpuSecond;
      const perK = (cpu) => ((1000 * cpu) / m.ok).toFixed(2);
      measurements.push({
        round: r, target: name, 'batches/s': m.perSecond.toFixed(0), 'batches/CPU-s': m.perCpuSecond.toFixed(0),
        'server CPU %': ((100 * m.cpuSeconds) / m.seconds).toFixed(0),
        ...Object.fromEntries(Object.entries(m.othersCpu).map(([n, cpu]) => [`${n} CPU-s/1k`, perK(cpu)])),
        'p50 ms': (m.result.latency.getValueAtPercentile(50) / 1000).toFixed(1), statuses: JSON.stringify(m.result.statuses),
      });
    }
    pairs.push({ round: r, order: order.join('→'), 'ingest b/CPU-s': pair.ingest.toFixed(0), 'otelcol b/CPU-s': pair.otelcol.toFixed(0), 'otelcol/ingest': (pair.otelcol / pair.ingest).toFixed(2) });
    console.log(`round ${r}: ingest ${pair.ingest.toFixed(0)}, otelcol ${pair.otelcol.toFixed(0)} batches/CPU-s`);
  }
  console.table(measurements);
  console.table(pairs);
  const ingestMedian = median(pairs.map((p) => Number(p['ingest b/CPU-s'])));
  const otelcolMedian = median(pairs.map((p) => Number(p['otelcol b/CPU-s'])));
  console.log(`median batches per CPU-second: ingest ${ingestMedian.toFixed(0)}, otelcol otlp→${collector.exporter} ${otelcolMedian.toFixed(0)}; ` +
    `ratio of the medians ${(otelcolMedian / ingestMedian).toFixed(2)}, median of the per-round ratios ${median(pairs.map((p) => Number(p['otelcol/ingest']))).toFixed(2)}`);
  const recordsAfter = await records();
  for (const [name, t] of Object.entries(targets)) {
    if (!t.topic) continue;
    const written = recordsAfter[name] - recordsBefore[name];
    console.log(`${name}: ${written} records on ${t.topic} for ${t.accepted} accepted batches (${(written / t.accepted).toFixed(2)} per batch)`);
  }
} finally {
  collector?.stop();
  rmSync(workDir, { recursive: true, force: true });
}
