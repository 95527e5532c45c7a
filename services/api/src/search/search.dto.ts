import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';

/** What a search result is: a volume or a host (clusters have no names, only ids: GET /v1/clusters). */
export const SEARCH_KINDS = ['volume', 'host'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Most results one search answers. */
export const SEARCH_LIMIT_MAX = 50;

/** Query of GET /v1/search. */
export const searchQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'q must not be empty')
    .max(100, 'q must be at most 100 characters')
    // PostgreSQL text holds no NUL, and no name an agent sends holds control characters.
    .regex(/^[^\x00-\x1f\x7f-\x9f]*$/, 'q must not contain control characters')
    .describe('text to find: part of a display name (case-insensitive; % and _ are literal), or the start of a pseudonymous id (hex)')
    .meta({ example: 'sql-data' }),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(20).describe(`results wanted, 1-${SEARCH_LIMIT_MAX}`),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** A volume or host found by a search (SearchRepository). */
export interface SearchRow {
  kind: SearchKind;
  id: string;
  display_name: string | null;
  host_id: string | null;
  host_display_name: string | null;
}

export class SearchResultDto {
  @ApiProperty({ enum: SEARCH_KINDS, description: 'what was found' }) kind!: SearchKind;
  @ApiProperty({ description: 'pseudonymous id (hex): volume_id or host_id' }) id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'name the agent sent (--send-names), null when the host did not opt in' })
  display_name!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'for a volume, the host it was last seen on; null for a host' })
  host_id!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "for a volume, its host's name when the host opted in; null otherwise" })
  host_display_name!: string | null;
}

export class SearchResultsDto {
  @ApiProperty({
    type: [SearchResultDto],
    description: 'exact name matches first, then names starting with q, then ids starting with q, then names containing q; by name (unnamed last), then id',
  })
  data!: SearchResultDto[];
}

export function mapSearchResult(row: SearchRow): SearchResultDto {
  return { kind: row.kind, id: row.id, display_name: row.display_name, host_id: row.host_id, host_display_name: row.host_display_name };
}
