import { z } from 'zod';
import type { IoCountersRow } from '../volumes/volume.dto.js';
import { timestampSchema } from '../http/timestamp.js';

/**
 * Longest range one export covers: 7 days of 10-second intervals is 60 480 rows. Also how long
 * the intervals are kept (migration 890, docs/rollups.md "Retention").
 */
export const MAX_EXPORT_RANGE_SECONDS = 7 * 24 * 60 * 60;
/** Range when the query names none: the last 24 hours. */
export const DEFAULT_EXPORT_RANGE_SECONDS = 24 * 60 * 60;

/** Query of GET /v1/volumes/{volumeId}/metrics/export: intervals with from <= interval_start < to. */
export const metricsExportQuerySchema = z.object({
  from: timestampSchema.optional().describe('start of the range, inclusive (RFC 3339); default: 24 hours before `to`'),
  to: timestampSchema.optional().describe('end of the range, exclusive (RFC 3339); default: now'),
});
export type MetricsExportQuery = z.output<typeof metricsExportQuerySchema>;

/** A volume_metrics_10s row as exported (bigint columns as float8). */
export interface IntervalRow extends IoCountersRow {
  interval_start: Date;
  interval_seconds: number;
  read_cache_hits: number;
  read_cache_misses: number;
  occupancy_bytes: number;
}

/**
 * The CSV columns, in order, with their units: counts are I/Os, hits and misses 4 KiB blocks,
 * sizes bytes, rates per second over the interval (ops / interval_seconds); proto/METRICS.md.
 */
export const CSV_COLUMNS = [
  'interval_start',
  'interval_seconds',
  'read_ops',
  'write_ops',
  'read_iops',
  'write_iops',
  'read_bytes',
  'write_bytes',
  'read_throughput_bytes_per_second',
  'write_throughput_bytes_per_second',
  'cache_hits',
  'cache_misses',
  'read_cache_hits',
  'read_cache_misses',
  'hit_ratio',
  'evicted_bytes',
  'occupancy_bytes',
  'capacity_bytes',
] as const;

/** One CSV record of an interval, in {@link CSV_COLUMNS} order; an empty hit_ratio means no lookups. */
export function csvRecord(row: IntervalRow): (string | number)[] {
  const perSecond = (value: number) => value / row.interval_seconds;
  return [
    row.interval_start.toISOString(),
    row.interval_seconds,
    row.read_ops,
    row.write_ops,
    perSecond(row.read_ops),
    perSecond(row.write_ops),
    row.read_bytes,
    row.write_bytes,
    perSecond(row.read_bytes),
    perSecond(row.write_bytes),
    row.cache_hits,
    row.cache_misses,
    row.read_cache_hits,
    row.read_cache_misses,
    row.hit_ratio ?? '',
    row.evicted_bytes,
    row.occupancy_bytes,
    row.capacity_bytes,
  ];
}
