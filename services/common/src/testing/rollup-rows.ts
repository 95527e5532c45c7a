import type { IoCounters } from '../contracts/io-counters.js';
import type { Queryable } from '../database/transaction.js';

/** A metric_rollups row as the Flink rollup job writes it (docs/rollups.md). */
export interface RollupRow extends IoCounters {
  tenant_id: string;
  scope: 'volume' | 'host' | 'cluster' | 'tenant';
  scope_id: string;
  resolution: '10s' | '1m' | '1h' | '1d';
  window_start: string;
  volumes: number;
  read_cache_hits: number;
  read_cache_misses: number;
  evicted_bytes: number;
  occupancy_bytes: number;
  capacity_bytes: number;
  /** {"read": {"<ioLength bin>": [20 counts]}, "write": {...}} over rollup_latency_bounds_us(). */
  latency_us: Record<string, Record<string, number[]>>;
  /** {"cache" | "peer" | "datastore": {"read" | "write": {ops, bytes, latency_us: [20 counts]}}} (migration 770). */
  sources: Record<string, Record<string, { ops: number; bytes: number; latency_us: number[] }>>;
  /** {"host_us": {mode: µs}, "host_wall_us", "consumer": {kind: {user_us, system_us, wall_us}}} (migration 855); absent: {}. */
  cpu?: { host_us?: Record<string, number>; host_wall_us?: number; consumer?: Record<string, { user_us: number; system_us: number; wall_us: number }> };
}

/** The additive counters of a rollup row (occupancy and capacity are gauges). */
const COUNTERS = ['read_ops', 'write_ops', 'read_bytes', 'write_bytes', 'cache_hits', 'cache_misses', 'read_cache_hits', 'read_cache_misses', 'evicted_bytes'] as const;

/** `counts` added into `into[key]` (created as zeros when missing). */
function addCountsAt<K extends string>(into: Partial<Record<K, number[]>>, key: K, counts: readonly number[]): void {
  const sum = (into[key] ??= new Array<number>(counts.length).fill(0));
  counts.forEach((c, i) => (sum[i] += c));
}

/**
 * Adds `r`'s counters, latency buckets and per-source counts into `into` (in place), as the rollup
 * job merges windows and scopes. Gauges: `gauges: 'latest'` takes r's (a later window of the same
 * scope), 'sum' adds them (another volume in the same window).
 */
export function addRollup(into: RollupRow, r: RollupRow, gauges: 'latest' | 'sum'): void {
  for (const key of COUNTERS) into[key] += r[key];
  into.occupancy_bytes = gauges === 'sum' ? into.occupancy_bytes + r.occupancy_bytes : r.occupancy_bytes;
  into.capacity_bytes = gauges === 'sum' ? into.capacity_bytes + r.capacity_bytes : r.capacity_bytes;
  for (const [direction, bins] of Object.entries(r.latency_us)) {
    for (const [bin, counts] of Object.entries(bins)) addCountsAt((into.latency_us[direction] ??= {}), bin, counts);
  }
  for (const [source, directions] of Object.entries(r.sources)) {
    for (const [direction, cell] of Object.entries(directions)) {
      const sum = ((into.sources[source] ??= {})[direction] ??= { ops: 0, bytes: 0, latency_us: new Array<number>(cell.latency_us.length).fill(0) });
      sum.ops += cell.ops;
      sum.bytes += cell.bytes;
      cell.latency_us.forEach((c, i) => (sum.latency_us[i] += c));
    }
  }
  addCpu(into, r);
}

/** Adds `r.cpu` into `into.cpu` (every field is a sum). */
function addCpu(into: RollupRow, r: RollupRow): void {
  if (!r.cpu) return;
  const cpu = (into.cpu ??= {});
  if (r.cpu.host_us) {
    for (const [mode, us] of Object.entries(r.cpu.host_us)) (cpu.host_us ??= {})[mode] = (cpu.host_us[mode] ?? 0) + us;
    cpu.host_wall_us = (cpu.host_wall_us ?? 0) + (r.cpu.host_wall_us ?? 0);
  }
  for (const [kind, c] of Object.entries(r.cpu.consumer ?? {})) {
    const sum = ((cpu.consumer ??= {})[kind] ??= { user_us: 0, system_us: 0, wall_us: 0 });
    sum.user_us += c.user_us;
    sum.system_us += c.system_us;
    sum.wall_us += c.wall_us;
  }
}

/** A copy of `r` for another scope, resolution or window that `addRollup` can add into. */
export function cloneRollup(r: RollupRow, changes: Partial<RollupRow>): RollupRow {
  return { ...r, ...changes, latency_us: structuredClone(r.latency_us), sources: structuredClone(r.sources), cpu: structuredClone(r.cpu) };
}

const RESOLUTIONS = [
  ['1m', 60],
  ['1h', 3600],
  ['1d', 86400],
] as const;

/** I/O mix of the synthetic workload: [direction, ioLength bin, bytes per I/O, share of the direction's I/Os, latency bucket]. */
const MIX = [
  ['read', '4096', 4096, 0.6, 7],
  ['read', '8192', 8192, 0.25, 8],
  ['read', '65536', 65536, 0.15, 9],
  ['write', '4096', 4096, 0.7, 8],
  ['write', '65536', 65536, 0.3, 10],
] as const;

/** 20 bucket counts of `ops` I/Os split 20/70/10 over the buckets around `bucket`. */
function spread(ops: number, bucket: number): number[] {
  const counts = new Array<number>(20).fill(0);
  counts[bucket - 1] = Math.floor(ops * 0.2);
  counts[bucket + 1] = Math.floor(ops * 0.1);
  counts[bucket] = ops - counts[bucket - 1] - counts[bucket + 1];
  return counts;
}

/**
 * Synthetic 10 s rollup windows of one scope id: a diurnal database-like workload (reads around
 * `iops` x 0.8, writes x 0.2, a sine over the day, every 360th window a 5x burst; the large-I/O
 * share grows in the burst), each I/O counted once in a latency bucket of its direction and bin
 * (split over three neighbouring buckets), a read hit ratio near 0.8. Per source: 80 % of the
 * reads served by the cache (two buckets faster), the rest by the datastore (one slower); writes
 * go to the datastore (write-through) or, with `writeBack`, to the tier's journal (one bucket
 * faster) and to one peer (WB+1, the write's own bucket). With `cpu`, the CPU time of a 2-CPU host
 * whose busy share follows the I/O (syntheticCpu) and of its consumer process (half
 * of that busy time, 3:1 user to system). Deterministic.
 * @param start first window start, aligned to 10 s.
 */
export function syntheticWindows(
  tenantId: string,
  scope: RollupRow['scope'],
  scopeId: string,
  start: Date,
  windows: number,
  iops = 500,
  options: { writeBack?: boolean; cpu?: boolean } = {},
): RollupRow[] {
  const rows: RollupRow[] = [];
  const t0 = Math.floor(start.getTime() / 10_000) * 10;
  for (let k = 0; k < windows; k++) {
    const t = t0 + k * 10;
    const burst = k % 360 === 359 ? 5 : 1;
    const level = iops * 10 * burst * (1 + 0.5 * Math.sin((2 * Math.PI * t) / 86400));
    const latency: RollupRow['latency_us'] = { read: {}, write: {} };
    const sources: RollupRow['sources'] = {};
    const served = (source: string, direction: string, ops: number, bytes: number, bucket: number) => {
      const cell = ((sources[source] ??= {})[direction] ??= { ops: 0, bytes: 0, latency_us: new Array<number>(20).fill(0) });
      cell.ops += ops;
      cell.bytes += ops * bytes;
      spread(ops, bucket).forEach((c, i) => (cell.latency_us[i] += c));
    };
    const totals = { read: { ops: 0, bytes: 0 }, write: { ops: 0, bytes: 0 } };
    for (const [direction, bin, bytes, share, bucket] of MIX) {
      const large = bytes >= 65536 ? burst : 1;
      const ops = Math.round(level * (direction === 'read' ? 0.8 : 0.2) * share * large);
      latency[direction][bin] = spread(ops, bucket);
      totals[direction].ops += ops;
      totals[direction].bytes += ops * bytes;
      if (direction === 'read') {
        const hits = Math.round(ops * 0.8);
        served('cache', 'read', hits, bytes, bucket - 2);
        served('datastore', 'read', ops - hits, bytes, bucket + 1);
      } else if (options.writeBack) {
        served('cache', 'write', ops, bytes, bucket - 1);
        served('peer', 'write', ops, bytes, bucket);
      } else {
        served('datastore', 'write', ops, bytes, bucket);
      }
    }
    const readBlocks = Math.round(totals.read.bytes / 4096);
    const readHits = Math.round(readBlocks * 0.8);
    const writeBlocks = Math.round(totals.write.bytes / 4096);
    rows.push({
      tenant_id: tenantId,
      scope,
      scope_id: scopeId,
      resolution: '10s',
      window_start: new Date(t * 1000).toISOString(),
      volumes: 1,
      read_ops: totals.read.ops,
      write_ops: totals.write.ops,
      read_bytes: totals.read.bytes,
      write_bytes: totals.write.bytes,
      cache_hits: readHits + Math.round(writeBlocks * 0.3),
      cache_misses: readBlocks - readHits + writeBlocks - Math.round(writeBlocks * 0.3),
      read_cache_hits: readHits,
      read_cache_misses: readBlocks - readHits,
      evicted_bytes: 0,
      occupancy_bytes: 2 ** 31,
      capacity_bytes: 2 ** 32,
      latency_us: latency,
      sources,
      cpu: options.cpu ? syntheticCpu((totals.read.ops + totals.write.ops) / 10) : undefined,
    });
  }
  return rows;
}

/** metric_rollups.cpu of a 10 s window of a 2-CPU host at `iops` (see syntheticWindows). */
function syntheticCpu(iops: number): NonNullable<RollupRow['cpu']> {
  const all = 2 * 10e6;
  const busy = Math.round(all * Math.min(0.9, 0.05 + iops / 10_000));
  const [user, system, iowait] = [Math.round(busy * 0.7), Math.round(busy * 0.3), Math.round(all * 0.02)];
  const consumer = busy / 2;
  return {
    host_us: { user, nice: 0, system, idle: all - user - system - iowait, iowait, interrupt: 0, steal: 0 },
    host_wall_us: 10e6,
    consumer: { process: { user_us: Math.round(consumer * 0.75), system_us: Math.round(consumer * 0.25), wall_us: 10e6 } },
  };
}

/**
 * The 1 min, 1 h and 1 d windows of 10 s windows (ascending, one scope id), as the rollup job
 * merges them: counters, histogram buckets and per-source counts added, the gauges of the latest
 * window kept.
 */
export function coarserWindows(tenSecond: readonly RollupRow[]): RollupRow[] {
  const out: RollupRow[] = [];
  for (const [resolution, seconds] of RESOLUTIONS) {
    const groups = new Map<number, RollupRow>();
    for (const r of tenSecond) {
      const start = Math.floor(Date.parse(r.window_start) / 1000 / seconds) * seconds;
      const g = groups.get(start);
      if (g) addRollup(g, r, 'latest');
      else groups.set(start, cloneRollup(r, { resolution, window_start: new Date(start * 1000).toISOString() }));
    }
    out.push(...groups.values());
  }
  return out;
}

/** Inserts rollup rows (as tierwise_owner or tierwise_jobs), 5,000 per statement. */
export async function insertRollups(db: Queryable, rows: readonly RollupRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 5000) {
    await db.query(
      `INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops, write_ops, read_bytes, write_bytes,
                                   cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, occupancy_bytes,
                                   capacity_bytes, latency_us, sources, cpu)
       SELECT tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops, write_ops, read_bytes, write_bytes, cache_hits,
              cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes, latency_us, sources,
              coalesce(cpu, '{}')
         FROM jsonb_populate_recordset(NULL::metric_rollups, $1::jsonb)`,
      [JSON.stringify(rows.slice(i, i + 5000))],
    );
  }
}
