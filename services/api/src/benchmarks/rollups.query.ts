import { z } from 'zod';

/** Rollup resolutions and their window lengths, seconds (db table rollup_resolutions). */
export const ROLLUP_RESOLUTIONS = { '10s': 10, '1m': 60, '1h': 3600, '1d': 86400 } as const;
export type RollupResolution = keyof typeof ROLLUP_RESOLUTIONS;
export const ROLLUP_SCOPES = ['volume', 'host', 'cluster', 'tenant'] as const;
/** Windows returned when `from` is absent: `to` minus this many windows. */
export const DEFAULT_WINDOWS = 100;
/** Points per answer at most; `truncated` says when more matched. */
export const MAX_POINTS = 2000;

/** Query of GET /v1/rollups. */
export const rollupQuerySchema = z
  .object({
    scope: z.enum(ROLLUP_SCOPES).default('volume').describe('volume, host, cluster or tenant'),
    scope_id: z
      .string()
      .regex(/^[0-9a-zA-Z-]{1,64}$/, 'scope_id must be 1-64 letters, digits or dashes')
      .optional()
      .describe('one volume, host or cluster id (or the tenant id); absent: every id of the scope'),
    resolution: z.enum(Object.keys(ROLLUP_RESOLUTIONS) as [RollupResolution, ...RollupResolution[]]).default('1d').describe('10s, 1m, 1h or 1d'),
    from: z.iso.datetime({ offset: true }).optional().describe(`first window start (inclusive), RFC 3339; default: to minus ${DEFAULT_WINDOWS} windows`),
    to: z.iso.datetime({ offset: true }).optional().describe('end (exclusive), RFC 3339; default: now'),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), { message: 'from must be before to', path: ['from'] });
export type RollupQuery = z.output<typeof rollupQuerySchema>;
