import { Injectable } from '@nestjs/common';
import type { Queryable } from '@tierwise/common';
import type { SearchRow } from './search.dto.js';

/** `text` as a LIKE pattern that matches it literally: the wildcards % and _ and the escape character \ escaped. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/** What a search looks for: a name fragment, and an id prefix when the text can start an id. */
export interface SearchTerms {
  /** The text as typed (trimmed): matched case-insensitively anywhere in display names. */
  text: string;
  /** Lower-case hex the ids may start with; null when the text is not hex. */
  idPrefix: string | null;
}

/**
 * The tenant's volumes and hosts whose display name contains $2 (an ILIKE pattern) or whose id
 * starts with $3 (a LIKE pattern, or NULL); $4 = the text, lower-cased, for the ranking; $1 = tenant.
 * Rank: 0 the name is the text, 1 the name starts with it, 2 the id does, 3 the name contains it.
 */
const MATCHES = `
  SELECT kind, id, display_name, host_id, host_display_name,
         CASE WHEN lower(display_name) = $4 THEN 0
              WHEN starts_with(lower(display_name), $4) THEN 1
              WHEN $3::text IS NOT NULL AND id LIKE $3 THEN 2
              ELSE 3 END AS rank
    FROM (SELECT 'volume' AS kind, v.volume_id AS id, v.display_name, v.host_id, h.display_name AS host_display_name
            FROM volumes v LEFT JOIN hosts h ON h.tenant_id = v.tenant_id AND h.host_id = v.host_id
           WHERE v.tenant_id = $1
          UNION ALL
          SELECT 'host', h.host_id, h.display_name, NULL, NULL
            FROM hosts h WHERE h.tenant_id = $1) item
   WHERE display_name ILIKE $2 OR ($3::text IS NOT NULL AND id LIKE $3)`;

/**
 * Finds volumes and hosts by name or id. The query names the tenant itself (the first wall) and
 * runs in the tenant's transaction, where row-level security is the second.
 */
@Injectable()
export class SearchRepository {
  async search(db: Queryable, tenantId: string, terms: SearchTerms, limit: number): Promise<SearchRow[]> {
    const { rows } = await db.query<SearchRow>(
      `SELECT kind, id, display_name, host_id, host_display_name FROM (${MATCHES}) found
        ORDER BY rank, lower(display_name) NULLS LAST, kind DESC, id
        LIMIT $5`,
      [tenantId, `%${escapeLike(terms.text)}%`, terms.idPrefix === null ? null : `${escapeLike(terms.idPrefix)}%`, terms.text.toLowerCase(), limit],
    );
    return rows;
  }
}
