import { z } from 'zod';

/** Query of GET /v1/fleet/overview. */
export const overviewQuerySchema = z
  .object({
    from: z.iso.datetime({ offset: true }).optional().describe('start (inclusive), RFC 3339; default: to minus 24 hours'),
    to: z.iso.datetime({ offset: true }).optional().describe('end (exclusive), RFC 3339; default: now'),
    top: z.coerce.number().int().min(1).max(50).default(10).describe('volumes in each top list'),
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) < Date.parse(q.to), { message: 'from must be before to', path: ['from'] });
export type OverviewQuery = z.output<typeof overviewQuerySchema>;
