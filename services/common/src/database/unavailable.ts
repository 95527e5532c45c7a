/** Node socket error codes meaning the server could not be reached or dropped the connection. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * Whether a PostgreSQL error means "try again later" rather than "this request is wrong":
 * a socket error, SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, cannot
 * connect now) or 53300 (too many connections). PostgreSQL Appendix A, "Error Codes".
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') {
    return error instanceof Error && /Connection terminated|timeout exceeded when trying to connect/.test(error.message);
  }
  return SOCKET_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300';
}
