#!/usr/bin/env node
/**
 * Ingest load benchmark (issue 9). Needs the local stack running (`./tierwise up`).
 *
 *   node bench/ingest-load/run.mjs [--agents 8] [--seconds 30] [--trace FILE] [--otelcol BIN]
 *                                  [--peer-exporter kafka|nop]
 *
 * 1. Captures what the real agent sends for one real trace (default: the CloudPhysics
 *    sample), then remaps host/volume ids so that N simulated agents send distinct data.
 * 2. Closed loop against ingest: metrics + reference batches, then metrics only; prints
 *    batches/s, batches per CPU-second of the ingest process tree, p50/p99/max latency.
 * 3. The same metrics-only load against the OpenTelemetry Collector's OTLP receiver
 *    (--otelcol BIN or $OTELCOL_BIN), the peer: by default writing to the stack's Kafka like
 *    ingest (peer.mjs); paired rounds of ingest and this peer: paired.mjs.
 * 4. Freshness: one more agent sends its batches once; the time from ingest's answer to the
 *    last batch until the API shows the volume's last interval.
 * The soak (flat memory at the sustainable rate) is soak-run.mjs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { agentCorpora, die, ingestUp, pidOf, requireEnv, ROOT, seedTenant } from './bench-stack.mjs';
import { measure, row } from './measure.mjs';
import { startPeer } from './peer.mjs';
import { measureFreshness } from './freshness.mjs';

const env = requireEnv();

const { values: args } = parseArgs({
  options: {
    agents: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '30' },
    trace: { type: 'string', default: path.join(env.TIERWISE_TRACES_DIR ?? path.resolve(ROOT, '../shared/traces'), 'cloudphysics_w_sample.csv') },
    otelcol: { type: 'string', default: env.OTELCOL_BIN },
    'peer-exporter': { type: 'string', default: 'kafka' },
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
  const target = async (label, url, kinds, pid) => rows.push(row(label, await measure({ url, kinds, pid, corpora, seconds })));
  console.log(`${agents} simulated agents, ${seconds} s per run, closed loop`);
  await target('ingest: metrics + refs', env.TIERWISE_INGEST_URL, ['metrics', 'refs'], ingestPid);
  await target('ingest: metrics only', env.TIERWISE_INGEST_URL, ['metrics'], ingestPid);
  if (args.otelcol) {
    const collector = await startPeer(args.otelcol, workDir, args['peer-exporter']);
    try {
      await target(`otelcol otlp→${collector.exporter}: metrics only`, collector.url, ['metrics'], collector.pid);
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
