import { addCounts, quantile, total } from './histogram.js';
import type { SeriesLatencyDto, SeriesPointDto, SeriesSizeDto } from './series.dto.js';
import type { SeriesWindowRow } from './series.repository.js';

/** Tier hits and misses are counted in 4 KiB blocks (proto/METRICS.md). */
const BLOCK_BYTES = 4096;

/** The custom breakdown: I/Os of one direction and/or some ioLength bins. */
export interface Selection {
  direction?: 'read' | 'write';
  sizeBins?: readonly string[];
}

/** A merged histogram and the worst 99th percentile of the windows added into it. */
class Merged {
  counts: number[] = [];
  p99Max = 0;
  add(counts: readonly number[]): void {
    addCounts(this.counts, counts);
  }
  /** Records one window's histogram of this key (added and its own p99 kept for the maximum). */
  addWindow(counts: readonly number[]): void {
    this.add(counts);
    this.p99Max = Math.max(this.p99Max, quantile(counts, 0.99) ?? 0);
  }
  latency(): SeriesLatencyDto | null {
    const count = total(this.counts);
    if (count <= 0) return null;
    return {
      count,
      p50_us: quantile(this.counts, 0.5)!,
      p95_us: quantile(this.counts, 0.95)!,
      p99_us: quantile(this.counts, 0.99)!,
      p99_max_us: this.p99Max,
    };
  }
}

/** Everything one bucket accumulates. */
class Bucket {
  windows = 0;
  readOps = 0;
  writeOps = 0;
  readBytes = 0;
  writeBytes = 0;
  hits = 0;
  misses = 0;
  readHits = 0;
  readMisses = 0;
  opsMin = Infinity;
  opsMax = 0;
  bytesMin = Infinity;
  bytesMax = 0;
  occupancy = 0;
  capacity = 0;
  readonly latency = new Map<string, Merged>();
  merged(key: string): Merged {
    let m = this.latency.get(key);
    if (!m) this.latency.set(key, (m = new Merged()));
    return m;
  }
}

const byBin = (a: string, b: string) => binOrder(a) - binOrder(b);
/** Sort key of an ioLength bin label ('>524288' last). */
export const binOrder = (label: string) => (label.startsWith('>') ? Number(label.slice(1)) + 1 : Number(label));

/**
 * Merges rollup windows (ascending) into points `bucketSeconds` wide starting at `alignedFrom`
 * (Unix seconds): sums and rates over the reported time, the min and max of single windows'
 * rates, latency percentiles from the added histogram counts (never averages of percentiles),
 * per direction, per ioLength bin (also both directions merged: 'all') and for the selection.
 * @returns the points with data, ascending, and the ioLength bins seen.
 */
export function downsample(
  rows: readonly SeriesWindowRow[],
  plan: { alignedFrom: number; bucketSeconds: number; windowSeconds: number },
  selection: Selection | null,
): { points: SeriesPointDto[]; sizeBins: string[] } {
  const buckets = new Map<number, Bucket>();
  const bins = new Set<string>();
  const selected = (direction: string, bin: string) =>
    selection !== null &&
    (selection.direction === undefined || selection.direction === direction) &&
    (selection.sizeBins === undefined || selection.sizeBins.includes(bin));
  for (const row of rows) {
    const index = Math.floor((row.t - plan.alignedFrom) / plan.bucketSeconds);
    let b = buckets.get(index);
    if (!b) buckets.set(index, (b = new Bucket()));
    b.windows += 1;
    b.readOps += row.read_ops;
    b.writeOps += row.write_ops;
    b.readBytes += row.read_bytes;
    b.writeBytes += row.write_bytes;
    b.hits += row.cache_hits;
    b.misses += row.cache_misses;
    b.readHits += row.read_cache_hits;
    b.readMisses += row.read_cache_misses;
    const ops = (row.read_ops + row.write_ops) / plan.windowSeconds;
    const bytes = (row.read_bytes + row.write_bytes) / plan.windowSeconds;
    b.opsMin = Math.min(b.opsMin, ops);
    b.opsMax = Math.max(b.opsMax, ops);
    b.bytesMin = Math.min(b.bytesMin, bytes);
    b.bytesMax = Math.max(b.bytesMax, bytes);
    b.occupancy = row.occupancy_bytes;
    b.capacity = row.capacity_bytes;
    // This window's merged histograms per key, so each key's worst window p99 is known.
    const window = new Map<string, number[]>();
    const put = (key: string, counts: readonly number[]) => {
      const into = window.get(key);
      if (into) addCounts(into, counts);
      else window.set(key, [...counts]);
    };
    for (const [direction, cells] of Object.entries(row.latency_us)) {
      for (const [bin, counts] of Object.entries(cells)) {
        bins.add(bin);
        put(`${direction}|${bin}`, counts);
        put(`all|${bin}`, counts);
        put(direction, counts);
        put('all', counts);
        if (selected(direction, bin)) put('selection', counts);
      }
    }
    for (const [key, counts] of window) b.merged(key).addWindow(counts);
  }
  const sizeBins = [...bins].sort(byBin);
  const points = [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, b]) => point(plan, index, b, sizeBins, selection !== null));
  return { points, sizeBins };
}

function point(
  plan: { alignedFrom: number; bucketSeconds: number; windowSeconds: number },
  index: number,
  b: Bucket,
  sizeBins: readonly string[],
  withSelection: boolean,
): SeriesPointDto {
  const seconds = b.windows * plan.windowSeconds;
  const frontBytes = (b.readBytes + b.writeBytes) / seconds;
  const cacheBytes = (b.hits * BLOCK_BYTES) / seconds;
  const directionOps: Record<string, number> = {
    read: total(b.latency.get('read')?.counts ?? []),
    write: total(b.latency.get('write')?.counts ?? []),
    all: total(b.latency.get('all')?.counts ?? []),
  };
  const sizes: SeriesSizeDto[] = [];
  for (const direction of ['read', 'write', 'all'] as const) {
    for (const bin of sizeBins) {
      const latency = b.latency.get(`${direction}|${bin}`)?.latency();
      if (!latency) continue;
      sizes.push({ direction, size_bin: bin, ops_per_s: latency.count / seconds, share: latency.count / directionOps[direction], ...latency });
    }
  }
  const selection = withSelection ? (b.latency.get('selection')?.latency() ?? null) : null;
  return {
    t: new Date((plan.alignedFrom + index * plan.bucketSeconds) * 1000).toISOString(),
    windows: b.windows,
    read_iops: b.readOps / seconds,
    write_iops: b.writeOps / seconds,
    iops_min: b.opsMin,
    iops_max: b.opsMax,
    read_bytes_per_s: b.readBytes / seconds,
    write_bytes_per_s: b.writeBytes / seconds,
    throughput_min: b.bytesMin,
    throughput_max: b.bytesMax,
    storage: { vm_observed: frontBytes, cache: cacheBytes, datastore: Math.max(0, frontBytes - cacheBytes), peer: null },
    hit_ratio: b.hits + b.misses > 0 ? b.hits / (b.hits + b.misses) : null,
    read_hit_ratio: b.readHits + b.readMisses > 0 ? b.readHits / (b.readHits + b.readMisses) : null,
    occupancy_bytes: b.occupancy,
    capacity_bytes: b.capacity,
    latency: b.latency.get('all')?.latency() ?? null,
    read_latency: b.latency.get('read')?.latency() ?? null,
    write_latency: b.latency.get('write')?.latency() ?? null,
    selection: selection ? { ...selection, ops_per_s: selection.count / seconds } : null,
    sizes,
  };
}
