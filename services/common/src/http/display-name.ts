import { z } from 'zod';

/**
 * No control character (Unicode category Cc: U+0000-U+001F and U+007F-U+009F). Written as
 * ranges rather than `\p{Cc}` so that the OpenAPI pattern is one every client and fuzzer can
 * use (schemathesis cannot generate values for `\p{...}`); PostgreSQL text cannot hold NUL.
 */
export const NO_CONTROL_CHARACTERS = /^[^\x00-\x1f\x7f-\x9f]*$/;

/** A name shown in lists (API keys, enrollment tokens, agents): 1-100 characters, trimmed, no control characters. */
export const displayNameSchema = z.string().trim().min(1).max(100).regex(NO_CONTROL_CHARACTERS, 'must not contain control characters');
