import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { type SearchQuery, searchQuerySchema, SearchResultsDto } from './search.dto.js';
import { SearchService } from './search.service.js';

@ApiTags('search')
@Controller('v1/search')
export class SearchController {
  constructor(private readonly searches: SearchService) {}

  @Get()
  @Authenticated({ permission: Permission.VolumeRead })
  @Endpoint({ summary: 'Volumes and hosts whose display name contains q (case-insensitive) or whose id starts with q', ok: SearchResultsDto, errors: { 400: 'q missing, empty, longer than 100 characters or with control characters; malformed limit' } })
  search(@Auth() auth: Principal, @Query({ schema: searchQuerySchema }) query: SearchQuery): Promise<SearchResultsDto> {
    return this.searches.search(auth, query);
  }
}
