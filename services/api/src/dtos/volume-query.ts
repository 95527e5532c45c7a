import { z } from 'zod';

/** Orders of GET /v1/volumes, all descending: I/Os (reads + writes), working set size, hit ratio. */
export const VOLUME_SORTS = ['ops', 'wss', 'hit_ratio'] as const;
export type VolumeSort = (typeof VOLUME_SORTS)[number];

/** Query of GET /v1/volumes. */
export const volumeListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('page size, 1-200'),
  cursor: z.string().max(512).optional().describe('next_cursor of the previous page; empty or absent for the first page'),
  sort: z.enum(VOLUME_SORTS).default('ops').describe('descending order: ops (reads + writes), wss (working set size) or hit_ratio; volumes without a value come last'),
});
export type VolumeListQuery = z.output<typeof volumeListQuerySchema>;

/** Path parameter volumeId: a pseudonymous volume id (lowercase hex). */
export const volumeIdSchema = z
  .string()
  .regex(/^[0-9a-f]{8,64}$/, 'volumeId must be 8-64 lowercase hex characters')
  .describe('pseudonymous volume id');
