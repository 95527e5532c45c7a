import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode } from '@tierwise/common';
import { z } from 'zod';
import { decodeCursor, encodeCursor, toPage } from '../http/pagination.js';
import type { DeliveryAttemptListDto, DeliveryDto, DeliveryListDto } from './settings.dto.js';
import type { DeliveryListQuery } from './settings.schemas.js';

/**
 * The delivery log of a tenant, newest first, keyset-paginated on the delivery id (the cursor
 * names the last id of a page, http/pagination's codec).
 */
@Injectable()
export class DeliveriesRepository {
  constructor(private readonly database: DatabaseService) {}

  /**
   * @throws ApiError bad_request when the cursor is not a next_cursor of this API.
   */
  async list(tenantId: string, query: DeliveryListQuery): Promise<DeliveryListDto> {
    const before = query.cursor ? decodeCursor(query.cursor, CURSOR_KIND, CURSOR_POSITION)[0] : null;
    const rows = await this.database.withTenant(tenantId, async (db) => {
      const { rows } = await db.query<DeliveryDto>(
        `SELECT d.id::text, d.outbox_id::text AS event_id, o.event_kind, o.severity,
                coalesce(o.payload->>'volume_id', o.payload->>'subject', o.payload->>'to') AS event_subject,
                d.channel_id, coalesce(c.kind, 'account-email') AS channel_kind, c.name AS channel_name,
                d.status, d.attempts, d.last_error,
                CASE WHEN d.status = 'pending' THEN d.next_attempt_at END AS next_attempt_at, d.sent_at, d.created_at
           FROM deliveries d
           JOIN outbox o ON o.id = d.outbox_id
           LEFT JOIN notification_channels c ON c.id = d.channel_id
          WHERE ($1::bigint IS NULL OR d.id < $1) AND ($2::text IS NULL OR d.status = $2)
          ORDER BY d.id DESC
          LIMIT $3`,
        [before, query.status ?? null, query.limit + 1],
      );
      return rows;
    });
    return toPage(rows, query.limit, (row) => row, (last) => encodeCursor(CURSOR_KIND, [last.id]));
  }

  /**
   * Every attempt of one delivery, first first.
   * @throws ApiError not_found when the tenant has no such delivery.
   */
  attempts(tenantId: string, deliveryId: string): Promise<DeliveryAttemptListDto> {
    return this.database.withTenant(tenantId, async (db) => {
      const found = await db.query('SELECT 1 FROM deliveries WHERE id = $1', [deliveryId]);
      if (found.rowCount !== 1) throw new ApiError(ErrorCode.NotFound, `no delivery ${deliveryId}`);
      const { rows } = await db.query<DeliveryAttemptListDto['data'][number]>(
        'SELECT attempt, outcome, error, at FROM delivery_attempts WHERE delivery_id = $1 ORDER BY attempt, id',
        [deliveryId],
      );
      return { data: rows };
    });
  }
}

const CURSOR_KIND = 'deliveries';
/** A delivery id (bigint, as text). */
const CURSOR_POSITION = z.tuple([z.string().regex(/^[1-9]\d{0,18}$/)]);
