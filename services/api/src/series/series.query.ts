import { z } from 'zod';
import { ROLLUP_RESOLUTIONS, ROLLUP_SCOPES, type RollupResolution } from '../benchmarks/rollups.query.js';

/** Range answered when `from` is absent: `to` minus this, seconds. */
export const DEFAULT_RANGE_SECONDS = 24 * 3600;

/** The period [from, to) a series or overview query asks for: `to` defaults to now, `from` to {@link DEFAULT_RANGE_SECONDS} before `to`. */
export function periodOf(query: { from?: string; to?: string }, now: Date): { from: Date; to: Date } {
  const to = query.to ? new Date(query.to) : now;
  return { from: query.from ? new Date(query.from) : new Date(to.getTime() - DEFAULT_RANGE_SECONDS * 1000), to };
}
/** Points asked for at most (a chart wider than this gains nothing from more). */
export const MAX_WIDTH = 4000;

const SIZE_BIN = /^(>?\d{3,7})$/;

/** Query of GET /v1/series. */
export const seriesQuerySchema = z
  .object({
    scope: z.enum(ROLLUP_SCOPES).optional().describe('volume, host, cluster or tenant; default: volume with a scope_id, else tenant'),
    scope_id: z
      .string()
      .regex(/^[0-9a-zA-Z-]{1,64}$/, 'scope_id must be 1-64 letters, digits or dashes')
      .optional()
      .describe('the volume, host or cluster id; absent for scope=tenant (the caller\'s tenant)'),
    from: z.iso.datetime({ offset: true }).optional().describe('start (inclusive), RFC 3339; default: to minus 24 hours'),
    to: z.iso.datetime({ offset: true }).optional().describe('end (exclusive), RFC 3339; default: now'),
    width: z.coerce.number().int().min(10).max(MAX_WIDTH).default(800).describe('points wanted at most: the chart\'s width in pixels'),
    resolution: z
      .enum(Object.keys(ROLLUP_RESOLUTIONS) as [RollupResolution, ...RollupResolution[]])
      .optional()
      .describe('read this rollup resolution instead of the one chosen from range and width'),
    sizes: z
      .stringbool()
      .default(false)
      .describe('true: every point carries `sizes` (block-size distribution, latency by block size: the heatmap cells)'),
    direction: z.enum(['read', 'write']).optional().describe('custom breakdown: only this direction'),
    size_bins: z
      .string()
      .optional()
      .transform((s, ctx) => {
        if (s === undefined) return undefined;
        const bins = s.split(',').filter(Boolean);
        const bad = bins.find((b) => !SIZE_BIN.test(b));
        if (bad !== undefined || bins.length === 0) {
          ctx.addIssue({ code: 'custom', message: `size_bins must be ioLength bin labels like 4096,>524288 (got '${bad ?? s}')` });
          return z.NEVER;
        }
        return bins;
      })
      .describe('custom breakdown: only these vscsiStats ioLength bins, comma-separated (e.g. 65536,131072,>524288)'),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), { message: 'from must be before to', path: ['from'] })
  .refine((q) => q.scope === undefined || q.scope === 'tenant' || q.scope_id !== undefined, {
    message: 'scope_id is required unless scope=tenant',
    path: ['scope_id'],
  })
  .transform((q) => ({ ...q, scope: q.scope ?? (q.scope_id === undefined ? ('tenant' as const) : ('volume' as const)) }));
export type SeriesQuery = z.output<typeof seriesQuerySchema>;
