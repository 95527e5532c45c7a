import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ApiError, ErrorCode } from '@tierwise/common';
import { z } from 'zod';

/** Page size and cursor of every list of /v1 (keyset pagination: the cursor names the last row of a page). */
export const pageQueryShape = {
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('page size, 1-200'),
  cursor: z.string().max(512).optional().describe('next_cursor of the previous page; empty or absent for the first page'),
};

/** A list answer: one page of rows and the cursor of the next page (null on the last page). */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/**
 * An opaque page cursor: base64url of JSON `[kind, ...position]`, where position is the sort
 * key of the last row of a page (e.g. `[created_at, id]`) and kind names the list and its order,
 * so a cursor of another list or order is refused.
 */
export function encodeCursor(kind: string, position: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify([kind, ...position])).toString('base64url');
}

/**
 * Reads a cursor made by {@link encodeCursor} for the same kind.
 * @param position schema of the position tuple.
 * @throws ApiError bad_request when the cursor is malformed or belongs to another list or order.
 */
export function decodeCursor<T extends readonly unknown[]>(cursor: string, kind: string, position: z.ZodType<T>): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new ApiError(ErrorCode.BadRequest, 'cursor is not a next_cursor of this API');
  }
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string') {
    throw new ApiError(ErrorCode.BadRequest, 'cursor is not a next_cursor of this API');
  }
  if (parsed[0] !== kind) {
    throw new ApiError(ErrorCode.BadRequest, `cursor belongs to ${parsed[0]}, not ${kind}`);
  }
  const result = position.safeParse(parsed.slice(1));
  if (!result.success) {
    throw new ApiError(ErrorCode.BadRequest, 'cursor is not a next_cursor of this API');
  }
  return result.data;
}

/**
 * Cuts the rows of a keyset query (asked for `limit + 1` rows) into a page: the first `limit`
 * rows, mapped, and a next_cursor when there was one more row.
 */
export function toPage<Row, T>(rows: readonly Row[], limit: number, map: (row: Row) => T, cursorOf: (last: Row) => string): Page<T> {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { data: page.map(map), next_cursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}

/**
 * The base class of a page of `item`s for the OpenAPI document, `{data: item[], next_cursor}`:
 * `export class HostPageDto extends PageDto(HostDto) {}` (the subclass names the schema).
 */
export function PageDto<T>(item: Type<T>): Type<Page<T>> {
  class PageOf implements Page<T> {
    @ApiProperty({ type: [item] }) data!: T[];
    @ApiProperty({ type: String, nullable: true, description: 'pass as `cursor` for the next page; null on the last page' }) next_cursor!: string | null;
  }
  return PageOf;
}
