/**
 * What the stack has spent so far, as a snapshot; the difference of two snapshots is the cost
 * of the load between them (report.mjs divides it per volume).
 *
 * snapshot({pids, stateDir, pgUrl}) -> {atMs, cpuSeconds: {process: s}, simulatorCpuSeconds, flinkCpuSeconds: {pipeline: s},
 *   kafkaBytes: {topic: bytes}, walBytes, tables: {group: {bytes, rows, windows}}, rowWrites, stateBytes}
 *   cpuSeconds:      user + system CPU of each stack process tree (procstat.mjs), seconds
 *   flinkCpuSeconds: the stream-jobs JVM's threads (/proc/<pid>/task, named by `jcmd Thread.print`)
 *                    grouped (PIPELINES): checkpoints (asynchronous snapshots), JVM (JIT, GC),
 *                    JDBC writers, the metrics and the working-set pipelines, other, seconds
 *   simulatorCpuSeconds: user + system CPU of this process (the fleet simulator, not the stack:
 *                    it shares the machine), seconds
 *   kafkaBytes:      bytes of each telemetry topic's partition logs on disk
 *   walBytes:        PostgreSQL's WAL position (pg_current_wal_lsn), bytes
 *   tables:          per table group (TABLE_GROUPS): total relation bytes (heap, indexes, TOAST),
 *                    live rows and distinct windows (time-series tables), from the catalogue
 *   rowWrites:       {table: rows inserted + updated} since the statistics were reset, partitions
 *                    counted under their root table (pg_stat_user_tables)
 *   stateBytes:      {operator: bytes} of the jobs' newest completed checkpoint (flink-state.mjs)
 */
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { jvmPid } from '../ingest-load/jvm.mjs';
import { threadCpuSeconds, treeUsage } from '../ingest-load/procstat.mjs';
import { flinkRestUrl, stateBytesByOperator } from './flink-state.mjs';

const run = promisify(execFile);
const TOPICS = ['telemetry.metrics.v1', 'telemetry.refs.v1'];
/**
 * Table groups: name -> {like: the relations (tables and their partitions, LIKE patterns),
 * from: the rows counted (a relation and condition the jobs role may read), window: their window column (time series) or null, seconds: its width}.
 */
export const TABLE_GROUPS = {
  'volume_metrics_10s': { like: ['volume\\_metrics\\_10s%'], from: 'volume_metrics_10s', window: 'interval_start', seconds: 10 },
  'metric_rollups 10 s': { like: ['metric\\_rollups\\_10s%'], from: "metric_rollups WHERE resolution = '10s'", window: 'window_start', seconds: 10 },
  'metric_rollups 1 min': { like: ['metric\\_rollups\\_1m%'], from: "metric_rollups WHERE resolution = '1m'", window: 'window_start', seconds: 60 },
  'metric_rollups 1 h': { like: ['metric\\_rollups\\_1h%'], from: "metric_rollups WHERE resolution = '1h'", window: 'window_start', seconds: 3600 },
  'metric_rollups 1 d': { like: ['metric\\_rollups\\_1d%'], from: "metric_rollups WHERE resolution = '1d'", window: 'window_start', seconds: 86400 },
  'working sets, MRCs': { like: ['volume\\_working\\_sets%', 'volume\\_mrcs%'], from: null, window: null },
};
/** The stream-jobs JVM's threads by name: task threads are named after their operator chain. */
const PIPELINES = [
  ['checkpoints', /^AsyncOperations|checkpoint/i],
  ['JVM (JIT, GC)', /Compiler|^GC |^G1 |^VM /],
  ['PostgreSQL writes (JDBC)', /^jdbc-/],
  ['metrics pipeline', /telemetry\.metrics|rollup|metric|cache health|io stats|block size/i],
  ['working-set pipeline', /telemetry\.refs|working set|recommendation|batches/i],
];

function dirBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(file) : statSync(file).size;
  }
  return total;
}

async function flinkThreads(rootPid) {
  const pid = jvmPid(rootPid);
  if (!pid) return {};
  const { stdout } = await run('jcmd', [String(pid), 'Thread.print'], { maxBuffer: 64 << 20 });
  const names = new Map([...stdout.matchAll(/^"(.*?)".*?nid=(0x[0-9a-f]+|\d+)/gm)].map((m) => [Number(m[2]), m[1]]));
  const spent = Object.fromEntries([...PIPELINES.map(([name]) => [name, 0]), ['other', 0]]);
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const name = names.get(Number(tid)) ?? '';
    const pipeline = PIPELINES.find(([, pattern]) => pattern.test(name))?.[0] ?? 'other';
    spent[pipeline] += threadCpuSeconds(pid, tid) ?? 0; // null: the thread ended
  }
  return spent;
}

async function stateBytes(rootPid) {
  const pid = jvmPid(rootPid);
  const url = pid && (await flinkRestUrl(pid));
  return url ? stateBytesByOperator(url) : {};
}

async function tables(pgUrl) {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    const result = { walBytes: Number((await client.query(`SELECT pg_current_wal_lsn() - '0/0' AS b`)).rows[0].b), tables: {} };
    for (const [group, { like, from, window }] of Object.entries(TABLE_GROUPS)) {
      const { rows: [size] } = await client.query(
        `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname LIKE ANY ($1)`, [like]);
      const counted = from
        ? (await client.query(`SELECT count(*) AS rows${window ? `, count(DISTINCT ${window}) AS windows` : ''} FROM ${from}`)).rows[0]
        : { rows: 0 };
      result.tables[group] = { bytes: Number(size.bytes), rows: Number(counted.rows), windows: Number(counted.windows ?? 0) };
    }
    const { rows: writes } = await client.query(
      `SELECT coalesce(pg_partition_root(relid), relid)::regclass::text AS name, sum(n_tup_ins + n_tup_upd) AS n
         FROM pg_stat_user_tables GROUP BY 1`);
    result.rowWrites = Object.fromEntries(writes.map((w) => [w.name, Number(w.n)]));
    return result;
  } finally {
    await client.end();
  }
}

export async function snapshot({ pids, stateDir, pgUrl }) {
  const kafkaDir = path.join(stateDir, 'kafka', 'data');
  const kafkaBytes = Object.fromEntries(TOPICS.map((topic) => [topic, readdirSync(kafkaDir)
    .filter((d) => d.startsWith(`${topic}-`)).reduce((n, d) => n + dirBytes(path.join(kafkaDir, d)), 0)]));
  return {
    atMs: Date.now(),
    cpuSeconds: Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, treeUsage(pid).cpuSeconds])),
    simulatorCpuSeconds: (({ user, system }) => (user + system) / 1e6)(process.cpuUsage()),
    flinkCpuSeconds: pids['stream-jobs'] ? await flinkThreads(pids['stream-jobs']) : {},
    kafkaBytes,
    ...(await tables(pgUrl)),
    stateBytes: pids['stream-jobs'] ? await stateBytes(pids['stream-jobs']) : {},
  };
}
