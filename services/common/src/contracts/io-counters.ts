/**
 * The front-end I/O counters of an interval or a total, as the database rows and the API name them
 * (proto/METRICS.md: `tierwise.io.operations`, `tierwise.io.bytes`, `tierwise.cache.lookups`):
 * I/Os, bytes, and tier lookups in 4 KiB blocks that hit or missed.
 */
export interface IoCounters {
  read_ops: number;
  write_ops: number;
  read_bytes: number;
  write_bytes: number;
  cache_hits: number;
  cache_misses: number;
}
