/**
 * SQL for a hit ratio: hits / (hits + misses) over 4 KiB blocks as float8, NULL without
 * lookups (proto/METRICS.md, "Hit ratio"). The arguments are column expressions of the
 * caller's query, never user input.
 */
export function hitRatioSql(hits: string, misses: string): string {
  return `CASE WHEN ${hits} + ${misses} > 0 THEN ${hits}::float8 / (${hits} + ${misses}) END`;
}
