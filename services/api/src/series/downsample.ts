import { CpuSums } from './cpu-times.js';
import { addCounts, emptyCounts, quantile, total } from './histogram.js';
import type { SeriesLatencyDto, SeriesPointDto, SeriesSizeDto, SeriesSourceDto } from './series.dto.js';
import type { SeriesWindowRow } from './series.repository.js';

/** The custom breakdown: I/Os of one direction and/or some ioLength bins. */
export interface Selection {
  direction?: 'read' | 'write';
  sizeBins?: readonly string[];
}

/** A merged histogram and the worst 99th percentile of the windows added into it. */
class Merged {
  counts: number[] = emptyCounts();
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
      p50_us: round(quantile(this.counts, 0.5)!),
      p95_us: round(quantile(this.counts, 0.95)!),
      p99_us: round(quantile(this.counts, 0.99)!),
      p99_max_us: round(this.p99Max),
    };
  }
}

/** I/Os and bytes of one source (or of the front end) by direction, added over a bucket's windows. */
interface IoSums {
  readOps: number;
  writeOps: number;
  readBytes: number;
  writeBytes: number;
}

/** One storage source's sums and merged latency in a bucket (metric_rollups.sources). */
class SourceSums implements IoSums {
  readOps = 0;
  writeOps = 0;
  readBytes = 0;
  writeBytes = 0;
  readonly merged = new Merged();
}

/** Rates of `io` over `seconds` and its latency: one source of the storage-type breakdown. */
function sourceRates(io: IoSums, latency: SeriesLatencyDto | null, seconds: number): SeriesSourceDto {
  return {
    iops: round((io.readOps + io.writeOps) / seconds),
    read_iops: round(io.readOps / seconds),
    write_iops: round(io.writeOps / seconds),
    bytes_per_s: round((io.readBytes + io.writeBytes) / seconds),
    read_bytes_per_s: round(io.readBytes / seconds),
    write_bytes_per_s: round(io.writeBytes / seconds),
    latency,
  };
}

/** Everything one bucket accumulates. */
class Bucket implements IoSums {
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
  /** Per direction ('read', 'write', 'all'): the merged histogram and per ioLength bin. */
  readonly directions = new Map<string, { merged: Merged; bins: Map<string, Merged> }>();
  readonly selection = new Merged();
  /** The host's and the consumer's CPU time (metric_rollups.cpu). */
  readonly cpu = new CpuSums();
  /** Per source other than the front end: 'cache', 'peer', 'datastore'. */
  readonly sources = new Map<string, SourceSums>();
  source(name: string): SourceSums {
    let s = this.sources.get(name);
    if (!s) this.sources.set(name, (s = new SourceSums()));
    return s;
  }
  direction(name: string) {
    let d = this.directions.get(name);
    if (!d) this.directions.set(name, (d = { merged: new Merged(), bins: new Map() }));
    return d;
  }
  cell(direction: string, bin: string): Merged {
    const bins = this.direction(direction).bins;
    let m = bins.get(bin);
    if (!m) bins.set(bin, (m = new Merged()));
    return m;
  }
}

/** `x` rounded to `digits` decimals (rates and microseconds: 3; ratios: 6), which keeps the body small. */
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

const byBin = (a: string, b: string) => binOrder(a) - binOrder(b);
/** Sort key of an ioLength bin label ('>524288' last). */
export const binOrder = (label: string) => (label.startsWith('>') ? Number(label.slice(1)) + 1 : Number(label));

/**
 * Merges rollup windows (ascending) into points `bucketSeconds` wide starting at `alignedFrom`
 * (Unix seconds): sums and rates over the reported time, the min and max of single windows'
 * rates, latency percentiles from the added histogram counts (never averages of percentiles),
 * per direction, per ioLength bin (also both directions merged: 'all'), for the selection and per
 * storage source (VM observed, cache, peer, datastore: I/Os, bytes and latency), and the CPU shares.
 * @returns the points with data, ascending, and the ioLength bins seen.
 */
export function downsample(
  rows: readonly SeriesWindowRow[],
  plan: { alignedFrom: number; bucketSeconds: number; windowSeconds: number },
  selection: Selection | null,
  withSizes = true,
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
    b.cpu.add(row.cpu);
    // Cells add into the bucket; each direction's and the window's whole histogram also keep
    // this window's own p99 for the point's worst-window p99.
    const windowAll = emptyCounts();
    let windowHasLatency = false;
    for (const [direction, cells] of Object.entries(row.latency_us)) {
      const windowDirection = emptyCounts();
      windowHasLatency = true;
      for (const [bin, counts] of Object.entries(cells)) {
        bins.add(bin);
        b.cell(direction, bin).add(counts);
        b.cell('all', bin).add(counts);
        addCounts(windowDirection, counts);
        if (selected(direction, bin)) b.selection.add(counts);
      }
      b.direction(direction).merged.addWindow(windowDirection);
      addCounts(windowAll, windowDirection);
    }
    if (windowHasLatency) b.direction('all').merged.addWindow(windowAll);
    for (const [name, directions] of Object.entries(row.sources)) {
      const source = b.source(name);
      const windowSource = emptyCounts();
      for (const [direction, cell] of Object.entries(directions)) {
        if (direction === 'write') {
          source.writeOps += cell.ops;
          source.writeBytes += cell.bytes;
        } else {
          source.readOps += cell.ops;
          source.readBytes += cell.bytes;
        }
        addCounts(windowSource, cell.latency_us);
      }
      source.merged.addWindow(windowSource);
    }
  }
  const sizeBins = [...bins].sort(byBin);
  const points = [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, b]) => point(plan, index, b, sizeBins, selection !== null, withSizes));
  return { points, sizeBins };
}

function point(
  plan: { alignedFrom: number; bucketSeconds: number; windowSeconds: number },
  index: number,
  b: Bucket,
  sizeBins: readonly string[],
  withSelection: boolean,
  withSizes: boolean,
): SeriesPointDto {
  const seconds = b.windows * plan.windowSeconds;
  const source = (name: string) => {
    const s = b.sources.get(name);
    return s ? sourceRates(s, s.merged.latency(), seconds) : null;
  };
  const latency = (direction: string) => b.directions.get(direction)?.merged.latency() ?? null;
  const sizes: SeriesSizeDto[] = [];
  for (const direction of withSizes ? (['read', 'write', 'all'] as const) : []) {
    const directionOps = total(b.directions.get(direction)?.merged.counts ?? []);
    for (const bin of sizeBins) {
      const cell = b.directions.get(direction)?.bins.get(bin)?.latency();
      if (!cell) continue;
      sizes.push({ direction, size_bin: bin, ops_per_s: round(cell.count / seconds), share: round(cell.count / directionOps, 6), ...cell });
    }
  }
  const selection = withSelection ? b.selection.latency() : null;
  const cpu = b.cpu.shares();
  return {
    t: new Date((plan.alignedFrom + index * plan.bucketSeconds) * 1000).toISOString(),
    windows: b.windows,
    read_iops: round(b.readOps / seconds),
    write_iops: round(b.writeOps / seconds),
    iops_min: round(b.opsMin),
    iops_max: round(b.opsMax),
    read_bytes_per_s: round(b.readBytes / seconds),
    write_bytes_per_s: round(b.writeBytes / seconds),
    throughput_min: round(b.bytesMin),
    throughput_max: round(b.bytesMax),
    sources: { vm_observed: sourceRates(b, latency('all'), seconds), cache: source('cache'), peer: source('peer'), datastore: source('datastore') },
    hit_ratio: b.hits + b.misses > 0 ? round(b.hits / (b.hits + b.misses), 6) : null,
    read_hit_ratio: b.readHits + b.readMisses > 0 ? round(b.readHits / (b.readHits + b.readMisses), 6) : null,
    occupancy_bytes: b.occupancy,
    capacity_bytes: b.capacity,
    latency: latency('all'),
    read_latency: latency('read'),
    write_latency: latency('write'),
    cpu: cpu ? { ...cpu, cpu_us_per_io: b.cpu.usPerIo(b.readOps + b.writeOps) } : null,
    selection: selection ? { ...selection, ops_per_s: round(selection.count / seconds) } : null,
    sizes,
  };
}
