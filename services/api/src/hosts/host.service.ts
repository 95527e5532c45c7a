import { Injectable } from '@nestjs/common';
import { DatabaseService } from '@tierwise/common';
import { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { decodeCursor, encodeCursor, type Page, toPage } from '../http/pagination.js';
import { type HostDto, type HostListQuery, mapHost } from './host.dto.js';
import { HostRepository } from './host.repository.js';

const CURSOR_KIND = 'hosts';
const positionSchema = z.tuple([z.string()]);

@Injectable()
export class HostService {
  constructor(
    private readonly database: DatabaseService,
    private readonly hosts: HostRepository,
  ) {}

  /**
   * One page of the caller's hosts in host id order.
   * @throws ApiError bad_request for a cursor of another list.
   */
  async list(auth: Principal, query: HostListQuery): Promise<Page<HostDto>> {
    const afterHostId = query.cursor ? decodeCursor(query.cursor, CURSOR_KIND, positionSchema)[0] : undefined;
    return this.database.withTenant(auth.tenantId, async (db) => {
      const rows = await this.hosts.list(db, auth.tenantId, { afterHostId, seenSince: query.seen_since }, query.limit + 1);
      return toPage(rows, query.limit, mapHost, (last) => encodeCursor(CURSOR_KIND, [last.host_id]));
    });
  }
}
