#!/usr/bin/env node
/**
 * The fleet benchmark (issue 17): N hosts x M volumes of real agent telemetry into the running
 * local stack, open loop, for a warm-up and then the measured span; then the drain.
 *
 *   bench/fleet/run.sh [--hosts 200] [--volumes-per-host 100] [--minutes 10] [--warmup-minutes 2]
 *       [--traces a.csv,b.csv] [--probes 10] [--seed 1] [--max-growth-mib 64] [--max-backlog-mib 2048]
 *       [--out FILE.json] [--keep-stack] [--pg-statements] [--agent-references]
 *
 * Starts a fresh stack with `./tierwise up` unless ingest answers (run.sh gives it its own ports
 * and state directory, .local/fleet, emptied first), stopped at the end unless --keep-stack. Prints, and writes to --out: the counts (volume-intervals and reference batches
 * offered, accepted, lost: refused, dropped from a full spool (--max-backlog-mib, fleet-wide) or
 * never accepted by the end of the drain; the volume's rows
 * in volume_metrics_10s against those accepted), the jobs' Kafka lag at the end of the sending and
 * after the drain (infra/local/kafka-lag.mjs), freshness percentiles, the memory verdict of
 * every process, and the per-stage cost table (report.mjs). Exits 1 when any interval was lost,
 * the jobs had not caught up by the end of the drain, a process's memory grew, or freshness p99
 * exceeded --max-freshness-s (30). --pg-statements starts the stack's PostgreSQL with
 * pg_stat_statements (pg-statements.mjs) and adds its statements of the measured span, µs per
 * volume-interval; it costs PostgreSQL some CPU, so compare its runs with each other only.
 * --agent-references sends what agents before 2026-12-08 sent: the sampled references, without
 * the agent's working-set shares or their summary, so that the jobs simulate the windows of each
 * volume and merge each host's tier (templates.mjs), for an A/B of the agent's analyses.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { enrollAgents, ingestUp, requireEnv, ROOT, seedTenant, stackPids } from '../ingest-load/bench-stack.mjs';
import { memoryVerdicts, memoryWatch } from '../ingest-load/memory.mjs';
import { snapshot } from './costs.mjs';
import { buildFleet, runFleet } from './fleet.mjs';
import { FreshnessProbes } from './freshness.mjs';
import { consumerLag } from '../../infra/local/kafka-lag.mjs';
import { verifyRows } from './verify.mjs';
import { PG_STATEMENTS_SETTINGS, resetStatements, topStatements } from './pg-statements.mjs';
import { costReport, markdownTable } from './report.mjs';
import { summarize } from './summary.mjs';
import { FleetSender } from './sender.mjs';
import { volumeTemplates } from './templates.mjs';

const run = promisify(execFile);
const env = requireEnv();
const { values: args } = parseArgs({
  options: {
    hosts: { type: 'string', default: '200' },
    'volumes-per-host': { type: 'string', default: '100' },
    minutes: { type: 'string', default: '10' },
    'warmup-minutes': { type: 'string', default: '2' },
    'drain-seconds': { type: 'string', default: '120' },
    traces: { type: 'string', default: path.join(env.TIERWISE_TRACES_DIR ?? path.resolve(ROOT, '../shared/traces'), 'cloudphysics_w_sample.csv') },
    probes: { type: 'string', default: '10' },
    seed: { type: 'string', default: '1' },
    'max-growth-mib': { type: 'string', default: '64' },
    'max-freshness-s': { type: 'string', default: '30' },
    'max-backlog-mib': { type: 'string', default: '2048' },
    out: { type: 'string' },
    'keep-stack': { type: 'boolean', default: false },
    'pg-statements': { type: 'boolean', default: false },
    'agent-references': { type: 'boolean', default: false },
  },
});
const log = (message) => console.log(`fleet: ${message}`);
const copy = (stats) => ({ bytes: stats.bytes, volumeIntervals: stats.volumeIntervals });
const minus = (a, b) => ({ bytes: a.bytes - b.bytes, volumeIntervals: a.volumeIntervals - b.volumeIntervals });

async function tierwise(command) {
  log(`./tierwise ${command}`);
  const pgSettings = args['pg-statements'] ? { TIERWISE_PG_SETTINGS: PG_STATEMENTS_SETTINGS } : {};
  await run(path.join(ROOT, 'tierwise'), [command], {
    cwd: ROOT, env: { ...env, ...pgSettings, TIERWISE_ENROLL_RATE_LIMIT_PER_MINUTE: '100000' }, maxBuffer: 64 << 20,
  });
}

const workDir = mkdtempSync(path.join(tmpdir(), 'tierwise-fleet-'));
let started = false;
try {
  // The superuser of the local stack (trust on 127.0.0.1: infra/local/postgres.sh).
  const pgSuperuserUrl = env.TIERWISE_PG_OWNER_URL.replace('tierwise_owner@', 'postgres@');
  if (!(await ingestUp())) {
    if (path.basename(env.TIERWISE_STATE_DIR) === 'fleet') rmSync(env.TIERWISE_STATE_DIR, { recursive: true, force: true });
    started = await tierwise('up').then(() => true);
  }
  const [hostCount, perHost] = [Number(args.hosts), Number(args['volumes-per-host'])];
  const volumes = hostCount * perHost;
  const templates = await volumeTemplates({ agentBin: path.join(ROOT, 'edge-agent/build/tierwise-agent'), traces: args.traces.split(','), workDir,
    references: args['agent-references'] });
  log(`${templates.length} volume templates from ${args.traces}; ${hostCount} hosts x ${perHost} volumes = ${volumes} volumes`);
  const tenant = await seedTenant();
  const hosts = buildFleet({ templates, hosts: hostCount, volumesPerHost: perHost, seed: Number(args.seed) });
  const tokens = await enrollAgents(tenant, hosts.map((h) => h.hostId));
  hosts.forEach((host, i) => { host.token = tokens[i]; });

  const sender = new FleetSender({ url: env.TIERWISE_INGEST_URL, maxBacklogBytes: Number(args['max-backlog-mib']) * 2 ** 20 });
  const step = Math.max(1, Math.floor(hostCount / Number(args.probes)));
  const probeIds = hosts.filter((_, i) => i % step === 0).slice(0, Number(args.probes)).map((h) => h.volumes[0].volumeId);
  const probes = new FreshnessProbes({ apiUrl: env.TIERWISE_API_URL, apiKey: tenant.api_key, volumeIds: probeIds });
  const onMetricsAck = (host, reported, closedAtMs) => {
    for (const { volumeId, startMs } of reported) probes.reported(volumeId, startMs, closedAtMs);
  };
  const pids = stackPids();
  const watch = memoryWatch(pids);
  const samples = [];
  const liveHeap = { start: {}, end: {} };
  const t0 = Date.now();
  const sampler = setInterval(async () => {
    const row = await watch.sample(Math.round((Date.now() - t0) / 1000));
    samples.push(row);
    log(`t=${row.t_s}s backlog ${sender.backlog()} requests (${Math.round(sender.backlogBytes / 2 ** 20)} MiB), accepted ${sender.stats.metrics.volumeIntervals} volume-intervals, load ${row.load1}`);
  }, 10_000);
  const costInput = { pids, stateDir: env.TIERWISE_STATE_DIR, pgUrl: env.TIERWISE_PG_JOBS_URL };
  const warmupSeconds = Number(args['warmup-minutes']) * 60;
  const measuredSeconds = Number(args.minutes) * 60;
  probes.start();
  let before;
  const warmup = setTimeout(async () => {
    probes.fromMs = Date.now();
    before = { costs: await snapshot(costInput), metrics: copy(sender.stats.metrics), refs: copy(sender.stats.refs) };
    await watch.collectLive(liveHeap.start);
    if (args['pg-statements']) await resetStatements(pgSuperuserUrl);
    log('warm-up over: measuring');
  }, warmupSeconds * 1000);
  await runFleet({ hosts, sender, seconds: warmupSeconds + measuredSeconds, onMetricsAck });
  clearTimeout(warmup);
  const after = { costs: await snapshot(costInput), metrics: copy(sender.stats.metrics), refs: copy(sender.stats.refs) };
  const statements = args['pg-statements']
    ? await topStatements(pgSuperuserUrl, { volumeIntervals: after.metrics.volumeIntervals - before.metrics.volumeIntervals })
    : undefined;
  await watch.collectLive(liveHeap.end);
  clearInterval(sampler);
  const brokers = env.TIERWISE_KAFKA_BROKERS.split(',');
  const lagAtEnd = await consumerLag(brokers);
  log(`sending over; draining ${sender.backlog()} queued requests and the jobs' lag ${JSON.stringify(lagAtEnd)} (at most ${args['drain-seconds']} s)`);
  const drainEnd = Date.now() + Number(args['drain-seconds']) * 1000;
  await Promise.race([sender.idle(), new Promise((resolve) => setTimeout(resolve, drainEnd - Date.now()))]);
  let lagAfterDrain = await consumerLag(brokers);
  while (Object.values(lagAfterDrain).some((n) => n > 0) && Date.now() < drainEnd) {
    await new Promise((resolve) => setTimeout(resolve, 5000));
    lagAfterDrain = await consumerLag(brokers);
  }
  const rows = await verifyRows({ pgUrl: env.TIERWISE_PG_JOBS_URL, tenantId: tenant.tenant_id, expected: sender.stats.metrics.volumeIntervals });
  await probes.stop();
  sender.close();

  const { summary, failures } = summarize({
    args, hosts: hostCount, volumesPerHost: perHost, sender, probes, rows, lagAtEnd, lagAfterDrain,
    memory: memoryVerdicts({ samples, names: Object.keys(pids), warmupSeconds, liveHeap, maxGrowthMiB: Number(args['max-growth-mib']) }),
    costs: costReport({ before: before.costs, after: after.costs, volumes, sent: { metrics: minus(after.metrics, before.metrics), refs: minus(after.refs, before.refs) } }),
  });
  console.log(JSON.stringify({ ...summary, memory: undefined, costs: undefined }, null, 1));
  console.table(summary.memory);
  console.log(markdownTable(summary.costs));
  if (statements) console.table(statements);
  if (args.out) writeFileSync(args.out, JSON.stringify({ ...summary, pgStatements: statements }, null, 1));
  for (const failure of failures) console.error(`fleet: FAILED: ${failure}`);
  if (!failures.length) log('every goal held: nothing lost, the jobs caught up, memory flat, freshness within bounds');
  process.exitCode = failures.length ? 1 : 0;
} finally {
  rmSync(workDir, { recursive: true, force: true });
  if (started && !args['keep-stack']) await tierwise('down');
}
