import { Injectable } from '@nestjs/common';
import { DatabaseService } from '@tierwise/common';
import type { Principal } from '../identity/principal.js';
import { mapSearchResult, type SearchQuery, type SearchResultsDto } from './search.dto.js';
import { SearchRepository, type SearchTerms } from './search.repository.js';

/** Text that can start a pseudonymous id: hex digits, either case (ids are lower-case). */
const HEX = /^[0-9a-f]+$/i;

/** The terms of a search text: the text for names, and its lower-case form as an id prefix when it is hex. */
export function searchTerms(text: string): SearchTerms {
  return { text, idPrefix: HEX.test(text) ? text.toLowerCase() : null };
}

/** Search across the tenant's volumes and hosts, by display name or id prefix (the portal's navigation search). */
@Injectable()
export class SearchService {
  constructor(
    private readonly database: DatabaseService,
    private readonly repository: SearchRepository,
  ) {}

  /** The caller's volumes and hosts matching `query.q`, best first, at most `query.limit`. */
  async search(auth: Principal, query: SearchQuery): Promise<SearchResultsDto> {
    return this.database.withTenant(auth.tenantId, async (db) => {
      const rows = await this.repository.search(db, auth.tenantId, searchTerms(query.q), query.limit);
      return { data: rows.map(mapSearchResult) };
    });
  }
}
