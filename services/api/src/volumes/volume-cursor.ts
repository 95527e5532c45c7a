import { z } from 'zod';
import type { VolumeSort } from './volume-query.js';
import { decodeCursor, encodeCursor } from '../http/pagination.js';
import type { VolumePosition } from './volume.repository.js';

const kindOf = (sort: VolumeSort): string => `volumes:${sort}`;
const positionSchema = z.tuple([z.number(), z.string()]);

/** The cursor after a volume of a page in `sort` order: its sort key and volume id. */
export function encodeVolumeCursor(sort: VolumeSort, position: VolumePosition): string {
  return encodeCursor(kindOf(sort), [position.sortKey, position.volumeId]);
}

/**
 * Reads a cursor made by {@link encodeVolumeCursor} for the same sort.
 * @throws ApiError bad_request when the cursor is malformed or was made for another sort.
 */
export function decodeVolumeCursor(cursor: string, sort: VolumeSort): VolumePosition {
  const [sortKey, volumeId] = decodeCursor(cursor, kindOf(sort), positionSchema);
  return { sortKey, volumeId };
}
