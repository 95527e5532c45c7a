import { ApiError, ErrorCode } from '@tierwise/common';
import { z } from 'zod';
import { VOLUME_SORTS, type VolumeSort } from '../dtos/volume-query.js';
import type { VolumePosition } from '../repositories/volume.repository.js';

const cursorSchema = z.object({ sort: z.enum(VOLUME_SORTS), key: z.number(), id: z.string() });

/**
 * An opaque page cursor: base64url of JSON `{sort, key, id}` naming the last volume of a page
 * (keyset pagination: the next page starts after that sort key and volume id).
 */
export function encodeVolumeCursor(sort: VolumeSort, position: VolumePosition): string {
  return Buffer.from(JSON.stringify({ sort, key: position.sortKey, id: position.volumeId })).toString('base64url');
}

/**
 * Reads a cursor made by {@link encodeVolumeCursor} for the same sort.
 * @throws ApiError bad_request when the cursor is malformed or was made for another sort.
 */
export function decodeVolumeCursor(cursor: string, sort: VolumeSort): VolumePosition {
  let parsed: z.infer<typeof cursorSchema>;
  try {
    parsed = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new ApiError(ErrorCode.BadRequest, 'cursor is not a next_cursor of this API');
  }
  if (parsed.sort !== sort) {
    throw new ApiError(ErrorCode.BadRequest, `cursor belongs to sort=${parsed.sort}, not sort=${sort}`);
  }
  return { sortKey: parsed.key, volumeId: parsed.id };
}
