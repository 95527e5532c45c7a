import { z } from 'zod';
import { PSEUDONYMOUS_ID_PATTERN } from '../contracts/ids.js';

/**
 * The zod schema of a pseudonymous volume, host or cluster id ({@link PSEUDONYMOUS_ID_PATTERN}),
 * its error naming `field` (a path parameter, a query field, an element of a list).
 */
export function pseudonymousIdSchema(field: string): z.ZodString {
  return z.string().regex(PSEUDONYMOUS_ID_PATTERN, `${field} must be 8-64 lowercase hex characters`);
}
