import { ROLLUP_RESOLUTIONS, type RollupResolution } from '../benchmarks/rollups.query.js';

/**
 * Retention of each rollup resolution, seconds: the defaults of the db table rollup_resolutions
 * (docs/rollups.md). A resolution is chosen only while the range's start is within it.
 */
export const RETENTION_SECONDS: Readonly<Record<RollupResolution, number>> = {
  '10s': 2 * 86400,
  '1m': 14 * 86400,
  '1h': 180 * 86400,
  '1d': 1095 * 86400,
};

/** The rollup resolution to read and the width of one output point, seconds. */
export interface SeriesPlan {
  resolution: RollupResolution;
  windowSeconds: number;
  /** Output point width, seconds: a whole number of windows, epoch-aligned. */
  bucketSeconds: number;
  /** First point's start (the range's start rounded down to a bucket boundary). */
  alignedFrom: Date;
}

/**
 * Chooses how to answer [from, to) in about `width` points (the chart's pixel width):
 * the coarsest resolution whose window still fits in one pixel (range / width), so every
 * point merges at least one window and no more rows are read than needed; a resolution whose
 * retention no longer covers `from` is skipped for a coarser one. Points are `bucketSeconds`
 * wide (a multiple of the window), aligned to the Unix epoch so that polling the same range
 * later gives the same buckets.
 * @param forced a resolution the caller named (read even past its retention).
 */
export function planSeries(from: Date, to: Date, width: number, now: Date, forced?: RollupResolution): SeriesPlan {
  const rangeSeconds = (to.getTime() - from.getTime()) / 1000;
  const perPixel = rangeSeconds / width;
  const ageSeconds = (now.getTime() - from.getTime()) / 1000;
  const order = Object.keys(ROLLUP_RESOLUTIONS) as RollupResolution[];
  const kept = order.filter((r) => RETENTION_SECONDS[r] >= ageSeconds);
  const candidates = kept.length > 0 ? kept : [order.at(-1)!];
  const resolution =
    forced ?? [...candidates].reverse().find((r) => ROLLUP_RESOLUTIONS[r] <= perPixel) ?? candidates[0];
  const windowSeconds = ROLLUP_RESOLUTIONS[resolution];
  const bucketSeconds = Math.max(1, Math.ceil(perPixel / windowSeconds)) * windowSeconds;
  const alignedFrom = new Date(Math.floor(from.getTime() / 1000 / bucketSeconds) * bucketSeconds * 1000);
  return { resolution, windowSeconds, bucketSeconds, alignedFrom };
}
