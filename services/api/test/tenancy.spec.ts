/**
 * The tenancy wall, over HTTP and in the database.
 *
 * Every route comes from the api's own OpenAPI document (GET /openapi.json), never from a hand
 * list: a route added tomorrow is called here by the next run, with a body built from its
 * request schema's examples. Each tenant calls with its read-write (admin) API key. Each route
 * is called three ways:
 *   1. a read with B's key and B's ids: 2xx, B's markers show (proves the route works, that
 *      the markers would be seen, and that the path parameters were filled right);
 *   2. a read with A's key and A's ids: 2xx, A's markers show, none of B's;
 *   3. with A's key and B's ids: none of B's markers show (but the ids the request carried,
 *      which a 404 message may echo), a route whose path names B's volume or key answers 404
 *      with the error body, and nothing of B changed (keys, policies, decisions, audit log).
 * B's markers are its volume id, host id, volume name, a read-ops figure found nowhere else and
 * the id of its admin key.
 * A new route that forgot tenant scoping (no `WHERE tenant_id`, or a read outside the tenant's
 * transaction) leaks B's markers in call 2 or 3, and this suite fails naming the route. A new
 * path parameter without an entry in PATH_IDS fails too, asking for B's id of that resource.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DatabaseService, type ProvisionedTenant } from '@tierwise/common';
import { hexId, insertVolume, TestTenants } from '@tierwise/common/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi } from './support/live-api.js';
import { insertNotificationSettings, type NotificationRows } from './support/notification-rows.js';

/** A tenant with one volume that has a row in every table the api reads. */
interface SeededTenant {
  tenant: ProvisionedTenant;
  /** A read-write key (acts as admin): every route is open to it. */
  adminKey: { id: string; key: string };
  /** A key the revoke route may revoke. */
  spareKeyId: string;
  volumeId: string;
  hostId: string;
  displayName: string;
  readOps: number;
  notifications: NotificationRows;
}

/** Strings of a tenant that no other tenant's answer may contain. */
const markers = (t: SeededTenant): string[] => [t.volumeId, t.hostId, t.displayName, String(t.readOps), t.adminKey.id];

/** Tables the api reads; the seed puts rows of both tenants in each. */
const API_TABLES = [
  'tenants',
  'api_keys',
  'hosts',
  'volumes',
  'volume_metrics_10s',
  'volume_io_stats',
  'volume_block_sizes',
  'volume_working_sets',
  'volume_mrcs',
  'recommendations',
  'volume_policies',
  'audit_log',
  'outbox',
  'notification_channels',
  'notification_routes',
  'alert_rules',
  'notification_mute_windows',
  'deliveries',
  'delivery_attempts',
];

/** The tenant's id for each path parameter of the OpenAPI document. */
const PATH_IDS: Readonly<Record<string, (t: SeededTenant) => string>> = {
  volumeId: (t) => t.volumeId,
  apiKeyId: (t) => t.spareKeyId,
  channelId: (t) => t.notifications.channelId,
  routeId: (t) => t.notifications.routeId,
  ruleId: (t) => t.notifications.ruleId,
  windowId: (t) => t.notifications.windowId,
  deliveryId: (t) => t.notifications.deliveryId,
};

/** The part of a JSON Schema a request body example is built from. */
interface BodySchema {
  properties?: Record<string, { examples?: unknown[]; default?: unknown; enum?: unknown[]; const?: unknown }>;
  required?: string[];
  /** Alternatives (e.g. one per policy mode): the first is used. */
  oneOf?: BodySchema[];
}

interface Operation {
  method: string;
  path: string;
  authenticated: boolean;
  body?: BodySchema;
}

/** The part of an OpenAPI 3 document this suite reads. */
interface OpenApiPaths {
  paths: Record<string, Record<string, { security?: unknown[]; requestBody?: { content: Record<string, { schema: BodySchema }> } }>>;
}

/** Every operation of an OpenAPI 3 document. */
function operations(document: OpenApiPaths): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch'].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        authenticated: (operation.security ?? []).length > 0,
        body: operation.requestBody?.content['application/json']?.schema,
      })),
  );
}

/**
 * A body for the operation: each required property's const, first example, default or first enum
 * value (properties without any are left out: the route may then answer 400 to the owner, but
 * never anything of another tenant).
 */
function bodyOf(operation: Operation): string | undefined {
  if (!operation.body) {
    return operation.method === 'GET' || operation.method === 'DELETE' ? undefined : '{}';
  }
  const schema = operation.body.oneOf?.[0] ?? operation.body;
  const entries = (schema.required ?? []).map((name) => {
    const property = schema.properties?.[name];
    return [name, property?.const ?? property?.examples?.[0] ?? property?.default ?? property?.enum?.[0]];
  });
  return JSON.stringify(Object.fromEntries(entries.filter(([, value]) => value !== undefined)));
}

/** The operation's path with each `{param}` replaced by the tenant's id of it. */
function pathOf(operation: Operation, owner: SeededTenant): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const id = PATH_IDS[name];
    if (!id) {
      throw new Error(`${operation.method} ${operation.path}: no tenant id for path parameter '${name}'; seed one and add it to PATH_IDS`);
    }
    return encodeURIComponent(id(owner));
  });
}

describe('tenancy wall (every route of the OpenAPI document, real PostgreSQL)', () => {
  const tenants = new TestTenants();
  let app: NestExpressApplication;
  let url: string;
  let a: SeededTenant;
  let b: SeededTenant;
  let routes: Operation[];

  async function seed(name: string, readOps: number): Promise<SeededTenant> {
    const tenant = await tenants.create(name);
    const seeded = {
      tenant,
      adminKey: await tenants.createApiKey(tenant.tenant_id, 'read-write'),
      spareKeyId: (await tenants.createApiKey(tenant.tenant_id, 'read', 'spare')).id,
      volumeId: hexId(),
      hostId: hexId(),
      displayName: `${name}-${hexId()}`,
      readOps,
      notifications: {} as NotificationRows,
    };
    await insertVolume(tenants.owner, tenant.tenant_id, {
      volumeId: seeded.volumeId,
      hostId: seeded.hostId,
      displayName: seeded.displayName,
      io: { readOps, writeOps: 7, hits: 3, misses: 1 },
      wssBytes: 4096 * 777,
      tierBytes: 4096 * 555,
      blockSizeOps: 333,
      mrcCacheBytes: 4096 * 999,
      intervals: [{ start: new Date(Date.now() - 3_600_000).toISOString(), readOps, writeOps: 7, hits: 3, misses: 1 }],
    });
    await tenants.owner.query(
      `INSERT INTO volume_policies (tenant_id, volume_id, version, mode, tier_bytes, media, eviction, source, updated_by_kind, updated_by_id)
       VALUES ($1, $2, 1, 'write-through', 4096 * 555, 'nvme', 'lru', 'manual', 'api_key', $3)`,
      [tenant.tenant_id, seeded.volumeId, seeded.adminKey.id],
    );
    await tenants.owner.query(
      `INSERT INTO audit_log (tenant_id, actor_kind, actor_id, action, target_kind, target_id, after)
       VALUES ($1, 'api_key', $2, 'volume_policy.set', 'volume', $3, '{"version": 1}')`,
      [tenant.tenant_id, seeded.adminKey.id, seeded.volumeId],
    );
    seeded.notifications = await insertNotificationSettings(tenants.owner, tenant.tenant_id, seeded.displayName, seeded.volumeId);
    return seeded;
  }

  async function call(operation: Operation, key: string, idsOf: SeededTenant): Promise<{ status: number; body: string; requestId: string | null }> {
    const body = bodyOf(operation);
    const response = await fetch(`${url}${pathOf(operation, idsOf)}`, {
      method: operation.method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body,
    });
    return { status: response.status, body: await response.text(), requestId: response.headers.get('x-request-id') };
  }

  /** What A must never change of B: keys, policies, recommendation decisions, audit log, idempotency keys, notification settings. */
  async function stateOf(t: SeededTenant): Promise<unknown[]> {
    const rows = async (sql: string) => (await tenants.owner.query(sql, [t.tenant.tenant_id])).rows;
    return [
      await rows('SELECT id, revoked_at FROM api_keys WHERE tenant_id = $1 ORDER BY id'),
      await rows('SELECT volume_id, version, updated_at FROM volume_policies WHERE tenant_id = $1 ORDER BY volume_id'),
      await rows('SELECT volume_id, decision FROM recommendation_decisions WHERE tenant_id = $1 ORDER BY volume_id'),
      await rows('SELECT count(*)::int AS n FROM audit_log WHERE tenant_id = $1'),
      await rows('SELECT count(*)::int AS n FROM idempotency_keys WHERE tenant_id = $1'),
      await rows(
        `SELECT (SELECT count(*) FROM notification_channels WHERE tenant_id = $1)::int AS channels, (SELECT count(*) FROM notification_routes WHERE tenant_id = $1)::int AS routes,
                (SELECT count(*) FROM alert_rules WHERE tenant_id = $1)::int AS rules, (SELECT count(*) FROM notification_mute_windows WHERE tenant_id = $1)::int AS windows`,
      ),
    ];
  }

  beforeAll(async () => {
    ({ app, url } = await startApi());
    [a, b] = [await seed('wall-a', 1_234_567), await seed('wall-b', 987_654_321)];
    routes = operations((await (await fetch(`${url}/openapi.json`)).json()) as OpenApiPaths);
  });

  afterAll(async () => {
    await app.close();
    await tenants.cleanUp();
  });

  it('finds the routes in the generated OpenAPI document', () => {
    expect(routes.map(({ method, path, authenticated }) => `${method} ${path} ${authenticated}`)).toEqual(
      expect.arrayContaining([
        'GET /v1/fleet/summary true',
        'GET /v1/hosts true',
        'GET /v1/volumes true',
        'GET /v1/volumes/{volumeId} true',
        'GET /v1/volumes/{volumeId}/policy true',
        'PUT /v1/volumes/{volumeId}/policy true',
        'GET /v1/volumes/{volumeId}/metrics/export true',
        'GET /v1/recommendations true',
        'GET /v1/recommendations/{volumeId} true',
        'POST /v1/recommendations/{volumeId}/apply true',
        'POST /v1/recommendations/{volumeId}/dismiss true',
        'GET /v1/api-keys true',
        'POST /v1/api-keys true',
        'DELETE /v1/api-keys/{apiKeyId} true',
        'GET /v1/audit-log true',
      ]),
    );
  });

  it("answers each tenant's key with its own data on every authenticated GET route", async () => {
    // Changes are called with B's ids by A's key in the next test; the SDK suites (sdk/typescript)
    // change each tenant's own resources through every write route.
    for (const route of routes.filter((r) => r.authenticated && r.method === 'GET')) {
      for (const [owner, other] of [
        [b, a],
        [a, b],
      ]) {
        const { status, body } = await call(route, owner.adminKey.key, owner);
        const label = `${route.method} ${route.path} as ${owner.tenant.tenant_id}`;
        expect({ label, status, ok: status >= 200 && status < 300 }).toEqual({ label, status, ok: true });
        expect({ label, shows: markers(owner).some((m) => body.includes(m)) }).toEqual({ label, shows: true });
        expect({ label, leaks: markers(other).filter((m) => body.includes(m)) }).toEqual({ label, leaks: [] });
      }
    }
  });

  it("never answers A's key with B's data nor changes B, even when the path names B's resources", async () => {
    await tenants.owner.query('DELETE FROM recommendation_decisions WHERE tenant_id = $1', [b.tenant.tenant_id]);
    const before = await stateOf(b);
    for (const route of routes) {
      const { status, body, requestId } = await call(route, a.adminKey.key, b);
      const label = `${route.method} ${route.path} with B's ids`;
      // An id the request itself carried may be echoed back ("volume <id> not found"); anything else of B is a leak.
      const sent = pathOf(route, b);
      expect({ label, leaks: markers(b).filter((m) => body.includes(m) && !sent.includes(m)) }).toEqual({ label, leaks: [] });
      if (route.path.includes('{')) {
        expect({ label, status, body: JSON.parse(body) }).toEqual({
          label,
          status: 404,
          body: { code: 'not_found', message: expect.any(String), request_id: requestId, doc_url: expect.stringMatching(/\/docs\/errors#not_found$/) },
        });
      } else {
        expect({ label, status, serverError: status >= 500 }).toEqual({ label, status, serverError: false });
      }
    }
    expect(await stateOf(b)).toEqual(before);
  });

  it('shows tierwise_app without the tenant setting no row of any table under row-level security', async () => {
    const database = app.get(DatabaseService);
    const { rows: tables } = await tenants.owner.query<{ name: string; tenant_column: string }>(
      `SELECT c.relname AS name,
              CASE WHEN EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
                   THEN 'tenant_id' ELSE 'id' END AS tenant_column
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relrowsecurity ORDER BY 1`,
    );
    const names = tables.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(API_TABLES));
    for (const { name, tenant_column } of tables) {
      const count = `SELECT count(*)::int AS n FROM ${name}`;
      const unscoped = (await database.pool.query(count)).rows[0].n as number;
      const ofB = (await tenants.owner.query(`${count} WHERE ${tenant_column} = $1`, [b.tenant.tenant_id])).rows[0].n as number;
      const scopedToB = await database.withTenant(b.tenant.tenant_id, async (db) => (await db.query(count)).rows[0].n as number);
      expect({ name, unscoped, scopedToB }).toEqual({ name, unscoped: 0, scopedToB: ofB });
    }
    for (const name of API_TABLES) {
      const column = tables.find((t) => t.name === name)?.tenant_column;
      const { rows } = await tenants.owner.query(`SELECT count(*)::int AS n FROM ${name} WHERE ${column} = $1`, [b.tenant.tenant_id]);
      expect({ name, rowsOfB: rows[0].n > 0 }).toEqual({ name, rowsOfB: true });
    }
  });
});
