import { z } from 'zod';
import { pageQueryShape } from '../http/pagination.js';
import { pseudonymousIdSchema } from '@tierwise/common';

/** Orders of GET /v1/volumes, all descending: I/Os (reads + writes), working set size, hit ratio. */
export const VOLUME_SORTS = ['ops', 'wss', 'hit_ratio'] as const;
export type VolumeSort = (typeof VOLUME_SORTS)[number];

/** Query of GET /v1/volumes. */
export const volumeListQuerySchema = z.object({
  ...pageQueryShape,
  sort: z.enum(VOLUME_SORTS).default('ops').describe('descending order: ops (reads + writes), wss (working set size) or hit_ratio; volumes without a value come last'),
  host_id: pseudonymousIdSchema('host_id').optional().describe('only volumes last seen on this host'),
  has_recommendation: z.enum(['true', 'false']).transform((value) => value === 'true').optional().describe('only volumes with (true) or without (false) a recommendation'),
});
export type VolumeListQuery = z.output<typeof volumeListQuerySchema>;

/** Path parameter volumeId: a pseudonymous volume id (lowercase hex). */
export const volumeIdSchema = pseudonymousIdSchema('volumeId').describe('pseudonymous volume id');
