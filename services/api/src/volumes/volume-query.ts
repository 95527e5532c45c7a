import { z } from 'zod';
import { pageQueryShape } from '../http/pagination.js';
import { PSEUDONYMOUS_ID_PATTERN } from '@tierwise/common';

/** Orders of GET /v1/volumes, all descending: I/Os (reads + writes), working set size, hit ratio. */
export const VOLUME_SORTS = ['ops', 'wss', 'hit_ratio'] as const;
export type VolumeSort = (typeof VOLUME_SORTS)[number];

/** Query of GET /v1/volumes. */
export const volumeListQuerySchema = z.object({
  ...pageQueryShape,
  sort: z.enum(VOLUME_SORTS).default('ops').describe('descending order: ops (reads + writes), wss (working set size) or hit_ratio; volumes without a value come last'),
  host_id: z.string().regex(PSEUDONYMOUS_ID_PATTERN, 'host_id must be 8-64 lowercase hex characters').optional().describe('only volumes last seen on this host'),
  has_recommendation: z.enum(['true', 'false']).transform((value) => value === 'true').optional().describe('only volumes with (true) or without (false) a recommendation'),
});
export type VolumeListQuery = z.output<typeof volumeListQuerySchema>;

/** Path parameter volumeId: a pseudonymous volume id (lowercase hex). */
export const volumeIdSchema = z
  .string()
  .regex(PSEUDONYMOUS_ID_PATTERN, 'volumeId must be 8-64 lowercase hex characters')
  .describe('pseudonymous volume id');
