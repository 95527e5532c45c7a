import { Injectable } from '@nestjs/common';
import { ApiError, DatabaseService, ErrorCode, type Queryable } from '@tierwise/common';
import type { SettingsResource } from './settings.resources.js';
import { WebhookTargetCheck } from './webhook-target.check.js';

/** PostgreSQL error codes the repository answers as 400 (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const CHECK_VIOLATION = '23514';
const FOREIGN_KEY_VIOLATION = '23503';

/** A database error of a write turned into 400 naming the broken rule, or rethrown. */
function badWrite(resource: SettingsResource, error: unknown): never {
  const { code, constraint } = error as { code?: string; constraint?: string };
  if (code === FOREIGN_KEY_VIOLATION) {
    throw new ApiError(ErrorCode.BadRequest, `channel_id names no channel of this tenant (${resource.noun} not saved)`);
  }
  if (code === CHECK_VIOLATION) {
    throw new ApiError(ErrorCode.BadRequest, `the ${resource.noun} breaks ${constraint ?? 'a constraint'}: check kind-specific fields (target format, secret, digest)`);
  }
  throw error;
}

/**
 * Create, read, update and delete of the notification settings of one tenant, each in the
 * tenant's transaction (row-level security), answering rows as the resource's `select` shows
 * them (secrets never).
 */
@Injectable()
export class SettingsRepository {
  constructor(
    private readonly database: DatabaseService,
    private readonly webhookTargets: WebhookTargetCheck,
  ) {}

  /** Every row of the tenant, oldest first. */
  list(tenantId: string, resource: SettingsResource): Promise<Record<string, unknown>[]> {
    return this.database.withTenant(tenantId, async (db) => (await db.query(`SELECT ${resource.select} FROM ${resource.from ?? `${resource.table} t`} ORDER BY t.created_at, t.id`)).rows);
  }

  /**
   * Inserts a row from a validated body.
   * @throws ApiError bad_request when a constraint or the egress guard (a URL target) refuses it.
   */
  create(tenantId: string, resource: SettingsResource, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const columns = resource.writable.filter((column) => body[column] !== undefined);
    const values = columns.map((column, index) => `$${index + 2}${resource.casts?.[column] ? `::${resource.casts[column]}` : ''}`);
    return this.database
      .withTenant(tenantId, async (db) => {
        const { rows } = await db.query<{ id: string }>(
          `INSERT INTO ${resource.table} (tenant_id, ${columns.join(', ')}) VALUES ($1, ${values.join(', ')}) RETURNING id`,
          [tenantId, ...columns.map((column) => body[column])],
        );
        return this.checkedTarget(resource, await this.one(db, resource, rows[0]!.id), body);
      })
      .catch((error: unknown) => badWrite(resource, error)) as Promise<Record<string, unknown>>;
  }

  /**
   * Updates the fields a validated body names; an empty body changes nothing.
   * @throws ApiError not_found when the tenant has no such row; bad_request when a constraint or the egress guard (a URL target) refuses the change.
   */
  update(tenantId: string, resource: SettingsResource, id: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const columns = resource.writable.filter((column) => body[column] !== undefined);
    const assignments = [
      ...columns.map((column, index) => `${column} = $${index + 2}${resource.casts?.[column] ? `::${resource.casts[column]}` : ''}`),
      ...(resource.extraUpdates?.(body) ?? []),
    ];
    return this.database
      .withTenant(tenantId, async (db) => {
        if (assignments.length > 0) {
          await db.query(`UPDATE ${resource.table} SET ${assignments.join(', ')} WHERE id = $1`, [id, ...columns.map((column) => body[column])]);
        }
        return this.checkedTarget(resource, await this.one(db, resource, id), body);
      })
      .catch((error: unknown) => badWrite(resource, error)) as Promise<Record<string, unknown>>;
  }

  /**
   * Deletes a row (a channel takes its routes, mute windows and deliveries with it).
   * @throws ApiError not_found when the tenant has no such row.
   */
  async remove(tenantId: string, resource: SettingsResource, id: string): Promise<void> {
    const { rowCount } = await this.database.withTenant(tenantId, (db) => db.query(`DELETE FROM ${resource.table} WHERE id = $1`, [id]));
    if (rowCount !== 1) throw new ApiError(ErrorCode.NotFound, `no ${resource.noun} ${id}`);
  }

  /** The written row, once a URL target the body set (on a kind of `urlTargetKinds`) passed the egress guard; throwing rolls the write back. */
  private checkedTarget(resource: SettingsResource, row: Record<string, unknown>, body: Record<string, unknown>): Record<string, unknown> {
    if (typeof body.target === 'string' && resource.urlTargetKinds?.includes(String(row.kind))) this.webhookTargets.check(body.target);
    return row;
  }

  private async one(db: Queryable, resource: SettingsResource, id: string): Promise<Record<string, unknown>> {
    const { rows } = await db.query(`SELECT ${resource.select} FROM ${resource.from ?? `${resource.table} t`} WHERE t.id = $1`, [id]);
    if (rows.length !== 1) throw new ApiError(ErrorCode.NotFound, `no ${resource.noun} ${id}`);
    return rows[0];
  }
}
