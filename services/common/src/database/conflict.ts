/**
 * SQLSTATEs that mean another transaction changed the same rows at the same time: 23505
 * unique_violation (two inserts of one key, e.g. the same decision or policy version), 40001
 * serialization_failure and 40P01 deadlock_detected (PostgreSQL Appendix A, "Error Codes").
 */
const CONCURRENT_CHANGE_CODES = new Set(['23505', '40001', '40P01']);

/** Whether a PostgreSQL error means a concurrent change won: the client may retry (409, never 500). */
export function isConcurrentChange(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONCURRENT_CHANGE_CODES.has(code);
}
