// Waits until the stack has processed replayed traces, as the demo tenant.
//
//   node demo-wait.mjs --baseline
//       prints what the tenant holds now, {"ops": I/Os, "refs": sampled references}
//   node demo-wait.mjs --baseline-json '{"ops":N,"refs":M}' --timeout-s S SUMMARY.json...
//       polls every 2 s until
//         (1) the fleet's read_ops + write_ops equal N plus the replayed I/Os, and
//         (2) every volume with a working set also has a miss ratio curve, and
//         (3) the cluster and the hosts' tiers have merged every volume: the demo's
//             replays all run with --cluster, so every volume with a working set belongs
//             to it, and to its host (a shared tier releases what all its volumes sent
//             past 30 s after their last batch, and the rest once they have sent none for
//             2 minutes: docs/analytics.md, "Shared tiers"), the cluster's windows end
//             where its host's tier's do (the host's agent runs that tier's windows, so
//             they hold every reference at once; the cluster's hold the last ones once
//             released), and those counts have not moved for 5 s (their results are
//             written a second after), and
//         (4) the jobs have processed every record of both telemetry topics (their consumer
//             groups' committed offsets are at the topics' ends, kafka-lag.mjs: Flink commits
//             them when a checkpoint completes, after every operator has taken the records
//             before it) and 20 s have passed since: the jobs write a volume's and its tiers'
//             final coarse rows (rollup windows of 1 min and longer, block-size totals,
//             working sets, curves, recommendation) 15 s after its last interval or reference
//             batch, and the 10 s rows a second after (docs/rollups.md, "When rows are
//             written"). Nothing the replays sent goes unwatched: a reference batch that
//             carries no sampled reference still moves a curve's normalisation.
//       The working sets hold at most M plus the SHARDS references the replays sent:
//       SHARDS fixed-size keeps only references under its current threshold, so
//       fewer is expected, more means counted twice. Exits 1 with what is missing
//       after S seconds, at once when the tenant holds more than was replayed.
import { parseArgs } from 'node:util';
import { apiClient, loadReplaySummary, requireEnv, runMain } from './demo-api.mjs';
import { consumerLag } from './kafka-lag.mjs';

const POLL_MS = 2_000;
// The shared tiers' results, once their merged volumes stop moving for this long (the jobs flush within a second).
const CLUSTER_SETTLE_MS = 5_000;
// The coarse rows, once the jobs have processed every record: 15 s after a stream's last
// batch, the flush and the write (docs/rollups.md, "When rows are written").
const COARSE_SETTLE_MS = 20_000;
const PROGRESS_MS = 15_000;
// Give up when nothing changed for this long: a stuck job should not keep the demo waiting.
const STALL_MS = 120_000;

async function fleetOps(api) {
  const fleet = await api.get('/v1/fleet/summary');
  return fleet.read_ops + fleet.write_ops;
}

/**
 * Working-set coverage of the tenant from the fleet summary: {volumes (with a working set),
 * refs (the SHARDS-sampled references behind them), withoutMrc (of those, volumes without a
 * miss ratio curve)}. One request however many volumes the tenant has.
 */
async function workingSets(api) {
  const fleet = await api.get('/v1/fleet/summary');
  return {
    volumes: fleet.working_set_volumes,
    refs: fleet.sampled_references,
    withoutMrc: fleet.working_set_volumes - fleet.mrc_volumes,
  };
}

/**
 * The shared tiers of a kind ('clusters' or 'hosts', the first page): {volumes: merged into them,
 * added up; end: the latest end of their windows, ms since the epoch (0: none)}.
 */
async function sharedTiers(api, kind) {
  const id = kind === 'clusters' ? 'cluster_id' : 'host_id';
  const page = await api.get(`/v1/${kind}?limit=100`);
  const tiers = await Promise.all(page.data.map((t) => api.get(`/v1/${kind}/${encodeURIComponent(t[id])}/working-set`)));
  const windows = tiers.flatMap((t) => t.windows);
  return {
    volumes: tiers.reduce((n, t) => n + Math.max(0, ...t.windows.map((w) => w.volumes)), 0),
    end: Math.max(0, ...windows.map((w) => Date.parse(w.working_set.window_end) || 0)),
  };
}

async function main() {
  const { values, positionals } = parseArgs({
    options: {
      baseline: { type: 'boolean' },
      'baseline-json': { type: 'string', default: '{"ops":0,"refs":0}' },
      'timeout-s': { type: 'string', default: '900' },
    },
    allowPositionals: true,
  });
  const api = apiClient();
  if (values.baseline) {
    console.log(JSON.stringify({ ops: await fleetOps(api), refs: (await workingSets(api)).refs }));
    return;
  }
  const brokers = requireEnv('TIERWISE_KAFKA_BROKERS').split(',');
  const base = JSON.parse(values['baseline-json']);
  const summaries = positionals.map(loadReplaySummary);
  const expectedOps = base.ops + summaries.reduce((n, s) => n + s.reads + s.writes, 0);
  const expectedRefs = base.refs + summaries.reduce((n, s) => n + s.references, 0);
  const timeoutS = Number(values['timeout-s']);
  const t0 = Date.now();
  let lastProgress = t0;
  let lastStatus = '';
  let lastChange = t0;
  let ws = { volumes: 0, refs: 0, withoutMrc: 0 };
  let lastSharedTiers = '';
  let clustersSince = t0;
  let unprocessed = null;
  let processedSince = null;
  for (;;) {
    const ops = await fleetOps(api);
    if (ops > expectedOps) {
      throw new Error(`the tenant holds ${ops} I/Os but ${expectedOps} were replayed: I/Os were counted twice`);
    }
    if (ops === expectedOps) {
      ws = await workingSets(api);
      const lag = await consumerLag(brokers);
      unprocessed = Object.values(lag).reduce((n, records) => n + records, 0);
      if (unprocessed > 0) processedSince = null;
      else processedSince ??= Date.now();
    }
    if (ws.refs > expectedRefs) {
      throw new Error(`the working sets hold ${ws.refs} sampled references but ${expectedRefs} were sent: counted twice`);
    }
    const clusters = await sharedTiers(api, 'clusters');
    const hosts = await sharedTiers(api, 'hosts');
    const merged = clusters.volumes;
    const mergedByHosts = hosts.volumes;
    const status = `${ops} of ${expectedOps} I/Os processed; ${ws.refs} sampled references (of ${expectedRefs} sent) `
      + `in the working sets of ${ws.volumes} volume(s), ${ws.withoutMrc} of them without a miss ratio curve; `
      + `${merged} of them merged into the cluster, ${mergedByHosts} into their hosts' tiers`
      + (clusters.end < hosts.end ? ` (the cluster's last ${((hosts.end - clusters.end) / 1000).toFixed(1)} s of references not yet released)` : '')
      + (unprocessed === null ? '' : `; ${unprocessed} telemetry record(s) not yet processed by the jobs`);
    if (`${merged}/${mergedByHosts}/${clusters.end}` !== lastSharedTiers) {
      lastSharedTiers = `${merged}/${mergedByHosts}/${clusters.end}`;
      clustersSince = Date.now();
    }
    const settled = ws.volumes > 0
      && merged >= ws.volumes && mergedByHosts >= ws.volumes && clusters.end >= hosts.end
      && Date.now() - clustersSince >= CLUSTER_SETTLE_MS
      && processedSince !== null && Date.now() - processedSince >= COARSE_SETTLE_MS;
    if (ops === expectedOps && settled && ws.withoutMrc === 0) {
      console.log(`      ${status}; complete ${((Date.now() - t0) / 1000).toFixed(1)} s after the replay`);
      return;
    }
    if (status !== lastStatus) {
      lastStatus = status;
      lastChange = Date.now();
    }
    const stalled = Date.now() - lastChange >= STALL_MS;
    if (stalled || Date.now() - t0 >= timeoutS * 1000) {
      const why = stalled ? `no progress for ${STALL_MS / 1000} s` : `not complete after ${timeoutS} s`;
      throw new Error(`results ${why}: ${status}. See the logs of stream-jobs, `
        + `ingest and the agent in ${process.env.TIERWISE_STATE_DIR}/logs`);
    }
    if (Date.now() - lastProgress >= PROGRESS_MS) {
      lastProgress = Date.now();
      console.log(`      ${status}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

runMain('demo-wait', main);
