/**
 * Mergeable latency histograms of metric_rollups.latency_us: bucket counts over the bounds of
 * `rollup_latency_bounds_us()` (proto/METRICS.md, log-linear 1-2-5, microseconds; bucket i counts
 * latencies in (bound[i-1], bound[i]], the last bucket is open above 1 s). Windows, scopes and
 * selections merge by adding counts, never by averaging percentiles.
 */

/** Bucket upper bounds, microseconds (proto/METRICS.md; the SQL function rollup_latency_bounds_us()). */
export const LATENCY_BOUNDS_US: readonly number[] = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000,
];

/** latency_us of one rollup window: direction -> ioLength bin label -> bucket counts. */
export type LatencyCells = Record<string, Record<string, number[]>>;

/**
 * metric_rollups.sources of one window (migration 770): source ('cache' | 'peer' | 'datastore') ->
 * direction -> that source's I/Os, bytes and latency bucket counts (all ioLength bins added).
 */
export type SourceCells = Record<string, Record<string, { ops: number; bytes: number; latency_us: number[] }>>;

/** Buckets of a histogram: one per bound and the open one above the last. */
export const BUCKETS = LATENCY_BOUNDS_US.length + 1;

/** An empty histogram (BUCKETS zero counts). */
export const emptyCounts = (): number[] => new Array<number>(BUCKETS).fill(0);

/** Adds `counts` into `into` (at least as long) element-wise; returns `into`. */
export function addCounts(into: number[], counts: readonly number[]): number[] {
  for (let i = 0; i < counts.length; i++) into[i] += counts[i];
  return into;
}

/** Sum of a histogram's counts. */
export function total(counts: readonly number[]): number {
  let sum = 0;
  for (const c of counts) sum += c;
  return sum;
}

/**
 * The q-quantile (0..1) of a histogram, microseconds, or null when it is empty: linear
 * interpolation inside the bucket holding the q-th weight, the open last bucket answering the
 * final bound. Prometheus' `histogram_quantile` method, and the same arithmetic as the SQL
 * function `histogram_quantile(bounds, counts, q)` of db migration 1700000000200 (a test in
 * services/api/test/series.spec.ts compares the two on random histograms).
 */
export function quantile(counts: readonly number[], q: number): number | null {
  const sum = total(counts);
  if (sum <= 0) return null;
  const n = LATENCY_BOUNDS_US.length;
  const target = q * sum;
  let cum = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i];
    if (c > 0 && cum + c >= target) {
      if (i >= n) return LATENCY_BOUNDS_US[n - 1];
      const lo = i === 0 ? 0 : LATENCY_BOUNDS_US[i - 1];
      return lo + ((LATENCY_BOUNDS_US[i] - lo) * Math.max(target - cum, 0)) / c;
    }
    cum += c;
  }
  return LATENCY_BOUNDS_US[n - 1];
}
