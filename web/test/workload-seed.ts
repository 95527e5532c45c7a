/**
 * The vscsiStats workload histograms of a seeded volume (analytics-seed.ts) as the Flink rollup
 * job writes them into metric_rollups.workload (stream-jobs/.../metrics/WorkloadHistograms,
 * json/Json.workload; db/migrations 845): {family: {direction: [bucket counts]}} with only the
 * histograms that have counts, every 10 s window's I/Os spread over the buckets below, and each
 * 1 min, 1 h and 1 d window the sum of its 10 s windows; optionally the alignment counts
 * (`alignment`, `alignment_work`) and vscsiStats' latency (`latency_us`, imported volumes). Only
 * the volume's own rows (the api reads scope 'volume'). seedImportedVolume adds a volume imported
 * from vscsiStats output (volumes.source, db/migrations 850).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

/** Buckets per family: its vscsiStats bounds (proto/METRICS.md) and the open bucket above them. */
const BUCKETS = { seek_distance: 34, seek_distance_closest: 34, outstanding: 13, interarrival_us: 11, alignment: 8, latency_us: 11 } as const;
type Family = keyof typeof BUCKETS;
type Direction = "all" | "read" | "write";
/** The families and `alignment_work` (per direction: [misaligned bytes, 4 KiB blocks issued, 4 KiB blocks if aligned]). */
type WorkloadCells = Partial<Record<Family | "alignment_work", Partial<Record<Direction, number[]>>>>;

/** Which optional families a volume reports. */
export interface WorkloadOptions {
  /** Outstanding I/Os (not from a replayed trace without completion times). Default true. */
  outstanding?: boolean;
  /** Alignment counts: 80 % misaligned, 70 % of all at sector 7 (3584 bytes: a partition at sector 63), 10 % extra 4 KiB blocks. */
  alignment?: boolean;
  /** vscsiStats' latency histogram, as an import carries it. */
  latency?: boolean;
}

/** Share of the bytes in misaligned commands, and 4 KiB blocks spanned as issued over aligned, minus 1, of a window with alignment. */
export const MISALIGNED_BYTES_SHARE = 0.8;
export const EXTRA_BLOCK_SHARE = 0.1;

/**
 * Where a window's commands fall: bucket index -> share, per family and direction. Seek distance
 * (bucket 17 holds distance 1: sequential; 8..25 hold (−128, 128]): 60 % of all commands
 * sequential, 70 % within 128 sectors. Alignment (bucket k: sector k of the 4 KiB block): 20 %
 * aligned, 10 % at sector 2, 70 % at sector 7 (3584 bytes in).
 */
const SHARES: Record<Family, Partial<Record<Direction, Record<number, number>>>> = {
  seek_distance: {
    all: { 17: 0.6, 22: 0.1, 0: 0.05, 28: 0.1, 33: 0.15 },
    read: { 17: 0.5, 23: 0.2, 0: 0.1, 33: 0.2 },
    write: { 17: 0.85, 22: 0.15 },
  },
  seek_distance_closest: { all: { 17: 0.8, 22: 0.15, 33: 0.05 } },
  outstanding: {
    all: { 0: 0.2, 1: 0.3, 2: 0.3, 3: 0.15, 5: 0.05 },
    read: { 0: 0.3, 1: 0.4, 2: 0.3 },
    write: { 0: 0.5, 1: 0.5 },
  },
  interarrival_us: {
    all: { 2: 0.4, 3: 0.3, 4: 0.2, 6: 0.1 },
    read: { 2: 0.3, 3: 0.4, 4: 0.3 },
    write: { 3: 0.2, 4: 0.5, 6: 0.3 },
  },
  alignment: { all: { 0: 0.2, 7: 0.7, 2: 0.1 } },
  latency_us: {
    all: { 3: 0.5, 4: 0.3, 6: 0.2 },
    read: { 3: 0.6, 4: 0.4 },
    write: { 4: 0.5, 6: 0.5 },
  },
};

/** `n` commands over the buckets by `shares` (floors; the rest in the lowest bucket named). */
function spread(n: number, buckets: number, shares: Record<number, number>): number[] {
  const counts = new Array<number>(buckets).fill(0);
  for (const [i, s] of Object.entries(shares)) counts[Number(i)] = Math.floor(n * s);
  counts[Number(Object.keys(shares)[0])] += n - counts.reduce((a, b) => a + b, 0);
  return counts;
}

/** One 10 s window's histograms (all commands, reads, writes) of `bytes` moved, with the optional families of `options`. */
function windowCells(reads: number, writes: number, bytes: number, options: Required<WorkloadOptions>): WorkloadCells {
  const cells: WorkloadCells = {};
  const ops = { all: reads + writes, read: reads, write: writes };
  const skip: Partial<Record<Family, boolean>> = { outstanding: !options.outstanding, alignment: !options.alignment, latency_us: !options.latency };
  if (options.alignment && ops.all > 0) {
    const aligned = Math.ceil(bytes / 4096);
    cells.alignment_work = { read: [Math.floor(MISALIGNED_BYTES_SHARE * bytes), aligned + Math.round(EXTRA_BLOCK_SHARE * aligned), aligned] };
  }
  for (const family of Object.keys(SHARES) as Family[]) {
    if (skip[family]) continue;
    for (const [direction, shares] of Object.entries(SHARES[family]) as [Direction, Record<number, number>][]) {
      if (ops[direction] > 0) (cells[family] ??= {})[direction] = spread(ops[direction], BUCKETS[family], shares);
    }
  }
  return cells;
}

/** `b`'s counts added into `a`. */
function addCells(a: WorkloadCells, b: WorkloadCells): void {
  for (const [family, directions] of Object.entries(b) as [keyof WorkloadCells, Partial<Record<Direction, number[]>>][]) {
    for (const [direction, counts] of Object.entries(directions) as [Direction, number[]][]) {
      const into = ((a[family] ??= {})[direction] ??= new Array<number>(counts.length).fill(0));
      counts.forEach((c, i) => (into[i] += c));
    }
  }
}

/** Writes the workload column of the volume's rollup rows at every resolution, as tierwise_owner. */
export async function seedWorkload(ownerUrl: string, tenantId: string, volumeId: string, options: WorkloadOptions = {}): Promise<void> {
  const families = { outstanding: true, alignment: false, latency: false, ...options };
  const db = new pg.Client({ connectionString: ownerUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ t: Date; read_ops: string; write_ops: string; bytes: string }>(
      `SELECT window_start AS t, read_ops, write_ops, read_bytes + write_bytes AS bytes FROM metric_rollups
        WHERE tenant_id = $1 AND scope = 'volume' AND scope_id = $2 AND resolution = '10s' ORDER BY window_start`,
      [tenantId, volumeId],
    );
    for (const [resolution, seconds] of [["10s", 10], ["1m", 60], ["1h", 3600], ["1d", 86400]] as const) {
      const windows = new Map<number, WorkloadCells>();
      for (const r of rows) {
        const start = Math.floor(r.t.getTime() / 1000 / seconds) * seconds * 1000;
        addCells(windows.get(start) ?? windows.set(start, {}).get(start)!, windowCells(Number(r.read_ops), Number(r.write_ops), Number(r.bytes), families));
      }
      await db.query(
        `UPDATE metric_rollups m SET workload = v.workload FROM jsonb_to_recordset($4::jsonb) AS v(window_start timestamptz, workload jsonb)
          WHERE m.tenant_id = $1 AND m.scope = 'volume' AND m.scope_id = $2 AND m.resolution = $3 AND m.window_start = v.window_start`,
        [tenantId, volumeId, resolution, JSON.stringify([...windows].map(([start, workload]) => ({ window_start: new Date(start).toISOString(), workload })))],
      );
    }
  } finally {
    await db.end();
  }
}

/**
 * A volume imported from vscsiStats output (`tierwise-agent import-vscsistats`): volumes.source
 * 'vscsistats', named `name`, on `like`'s host with a copy of `like`'s volume rollups and the
 * histograms an import carries (latency, no alignment), as tierwise_owner. No tier: no I/O stats,
 * working set or recommendation.
 * @returns its volume id.
 */
export async function seedImportedVolume(ownerUrl: string, tenantId: string, like: { volumeId: string; hostId: string }, name: string): Promise<string> {
  const volumeId = randomBytes(8).toString("hex");
  const db = new pg.Client({ connectionString: ownerUrl });
  await db.connect();
  try {
    await db.query("INSERT INTO volumes (tenant_id, volume_id, host_id, display_name, source) VALUES ($1, $2, $3, $4, 'vscsistats')", [tenantId, volumeId, like.hostId, name]);
    await db.query(
      `INSERT INTO metric_rollups SELECT (jsonb_populate_record(NULL::metric_rollups, to_jsonb(m) || jsonb_build_object('scope_id', $3::text))).*
         FROM metric_rollups m WHERE tenant_id = $1 AND scope = 'volume' AND scope_id = $2`,
      [tenantId, like.volumeId, volumeId],
    );
  } finally {
    await db.end();
  }
  await seedWorkload(ownerUrl, tenantId, volumeId, { latency: true });
  return volumeId;
}
