#!/usr/bin/env node
/**
 * Ingest load benchmark (issue 9). Needs the local stack running (`./tierwise up`).
 *
 *   node bench/ingest-load/run.mjs [--agents 8] [--seconds 30] [--trace FILE] [--otelcol BIN]
 *
 * 1. Captures what the real agent sends for one real trace (default: the CloudPhysics
 *    sample), then remaps host/volume ids so that N simulated agents send distinct data.
 * 2. Closed loop against ingest: metrics + reference batches, then metrics only; prints
 *    batches/s, batches per CPU-second of the ingest process tree, p50/p99/max latency.
 * 3. The same metrics-only load against the OpenTelemetry Collector's OTLP receiver
 *    (--otelcol BIN or $OTELCOL_BIN), the peer.
 * 4. Freshness: one more agent sends its batches once; the time from ingest's answer to the
 *    last batch until the API shows the volume's last interval.
 * The soak (flat memory at the sustainable rate) is soak-run.mjs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { agentCorpora, die, ingestUp, pidOf, requireEnv, ROOT, seedTenant } from './bench-stack.mjs';
import { runLoad } from './load.mjs';
import { startCollector } from './peer.mjs';
import { treeUsage } from './procstat.mjs';
import { measureFreshness } from './freshness.mjs';

const env = requireEnv();

const { values: args } = parseArgs({
  options: {
    agents: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '30' },
    trace: { type: 'string', default: path.join(env.TIERWISE_TRACES_DIR ?? path.resolve(ROOT, '../shared/traces'), 'cloudphysics_w_sample.csv') },
    otelcol: { type: 'string', default: env.OTELCOL_BIN },
  },
});

const ingestPid = pidOf('ingest');
if (!ingestPid || !(await ingestUp())) {
  die(`ingest is not running at ${env.TIERWISE_INGEST_URL}; start the stack with ./tierwise up`);
}

const agents = Number(args.agents);
const seconds = Number(args.seconds);
const workDir = mkdtempSync(path.join(tmpdir(), 'tierwise-ingest-load-'));
try {
  const tenant = await seedTenant();
  const { batches, corpora } = await agentCorpora({ trace: args.trace, agents, workDir, tenant });

  const rows = [];
  const measure = async (label, url, kinds, pid) => {
    const before = treeUsage(pid).cpuSeconds;
    const result = await runLoad({ url, corpora, seconds, kinds });
    const cpu = treeUsage(pid).cpuSeconds - before;
    const ok = result.statuses[200] ?? 0;
    rows.push({
      target: label,
      'batches/s': (ok / result.seconds).toFixed(0),
      'batches/CPU-s': (ok / cpu).toFixed(0),
      'server CPU %': ((100 * cpu) / result.seconds).toFixed(0),
      'p50 ms': (result.latency.getValueAtPercentile(50) / 1000).toFixed(2),
      'p99 ms': (result.latency.getValueAtPercentile(99) / 1000).toFixed(2),
      'max ms': (result.latency.maxValue / 1000).toFixed(1),
      statuses: JSON.stringify(result.statuses),
    });
  };
  console.log(`${agents} simulated agents, ${seconds} s per run, closed loop`);
  await measure('ingest: metrics + refs', env.TIERWISE_INGEST_URL, ['metrics', 'refs'], ingestPid);
  await measure('ingest: metrics only', env.TIERWISE_INGEST_URL, ['metrics'], ingestPid);
  if (args.otelcol) {
    const collector = await startCollector(args.otelcol, workDir);
    try {
      await measure('otelcol otlp→nop: metrics only', collector.url, ['metrics'], collector.pid);
    } finally {
      collector.stop();
    }
  } else {
    console.log('  (no --otelcol / $OTELCOL_BIN: the peer is skipped)');
  }
  console.table(rows);

  const freshness = await measureFreshness({ batches, agentIndex: agents, tenant });
  console.log(freshness);
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
