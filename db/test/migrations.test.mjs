// The schema contract against a real PostgreSQL (the test profile's server,
// started by ./tierwise test): the migrate script applies and rolls back every
// migration, and row-level security confines tierwise_app to its tenant.
// Each run works in a scratch database it creates and drops, so it never
// touches the `tierwise` database other suites use.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import pg from 'pg';

const ownerUrl = process.env.TIERWISE_PG_OWNER_URL;
if (!ownerUrl) {
  throw new Error('TIERWISE_PG_OWNER_URL is not set: run the tests with ./tierwise test, or export infra/local/env.sh (TIERWISE_PROFILE=test) with infra/local/postgres.sh running');
}
const dbDir = new URL('..', import.meta.url).pathname;
const migrations = readdirSync(new URL('../migrations/', import.meta.url)).filter((f) => f.endsWith('.sql'));
const scratch = `tierwise_scratch_${process.pid}`;
const TABLES = ['tenants', 'agents', 'api_keys', 'hosts', 'volumes',
  'volume_metrics_10s', 'volume_io_stats', 'volume_block_sizes', 'volume_working_sets',
  'volume_mrcs', 'recommendations', 'recommendation_history'];

/** The server's URL for `user` on database `db` (loopback trust auth, see infra/local/postgres.sh). */
function urlFor(user, db) {
  const url = new URL(ownerUrl);
  url.username = user;
  url.pathname = `/${db}`;
  return url.toString();
}

/** Run `fn(client)` on a fresh connection as `user` to the scratch database. */
async function withClient(user, fn) {
  const client = new pg.Client({ connectionString: urlFor(user, scratch) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Run db/scripts/migrate.sh against the scratch database; fail with its output. */
function migrate(direction) {
  const run = spawnSync('bash', ['scripts/migrate.sh', direction], {
    cwd: dbDir,
    env: { ...process.env, TIERWISE_PG_OWNER_URL: urlFor('tierwise_owner', scratch) },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, `migrate.sh ${direction} failed:\n${run.stdout}${run.stderr}`);
}

async function existingTables() {
  return withClient('tierwise_owner', async (c) => {
    const { rows } = await c.query(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
    return rows.map((r) => r.tablename).filter((t) => TABLES.includes(t));
  });
}

async function admin(sql) {
  const client = new pg.Client({ connectionString: urlFor('postgres', 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

before(() => admin(`CREATE DATABASE ${scratch} OWNER tierwise_owner`));
after(() => admin(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`));

test('migrate applies every migration, rolls each back, and applies them again', async () => {
  migrate('up');
  assert.deepEqual(await existingTables(), [...TABLES].sort());
  const applied = await withClient('tierwise_owner', (c) =>
    c.query('SELECT name FROM tierwise_migrations.pgmigrations ORDER BY run_on, id'));
  assert.deepEqual(applied.rows.map((r) => `${r.name}.sql`), migrations.sort());

  migrate('up'); // nothing pending: still succeeds
  for (let i = 0; i < migrations.length; i++) migrate('down');
  assert.deepEqual(await existingTables(), []);

  migrate('up');
  assert.deepEqual(await existingTables(), [...TABLES].sort());
});

test('row-level security: tierwise_app sees and writes only its tenant, tierwise_jobs sees all', async () => {
  const [tenantA, tenantB] = [randomUUID(), randomUUID()];
  const tokenB = randomBytes(32).toString('hex');
  await withClient('tierwise_jobs', async (c) => {
    await c.query("INSERT INTO tenants (id, name) VALUES ($1, 'a'), ($2, 'b')", [tenantA, tenantB]);
    await c.query(
      "INSERT INTO agents (tenant_id, name, token_sha256) VALUES ($1, 'agent-a', $3), ($2, 'agent-b', $4)",
      [tenantA, tenantB, randomBytes(32).toString('hex'), tokenB]);
    const all = await c.query('SELECT count(*)::int AS n FROM agents');
    assert.equal(all.rows[0].n, 2, 'the jobs role bypasses RLS');
  });

  await withClient('tierwise_app', async (c) => {
    const none = await c.query('SELECT count(*)::int AS n FROM agents');
    assert.equal(none.rows[0].n, 0, 'no tenant set: no rows');

    await c.query('BEGIN');
    await c.query("SELECT set_config('tierwise.tenant_id', $1, true)", [tenantA]);
    const agents = await c.query('SELECT tenant_id FROM agents');
    assert.deepEqual(agents.rows.map((r) => r.tenant_id), [tenantA]);
    const tenants = await c.query('SELECT id FROM tenants');
    assert.deepEqual(tenants.rows.map((r) => r.id), [tenantA]);
    await assert.rejects(
      c.query("INSERT INTO agents (tenant_id, name, token_sha256) VALUES ($1, 'x', 'y')", [tenantB]),
      (err) => err.code === '42501', 'writing a row of another tenant violates the policy');
    await c.query('ROLLBACK');

    // Credential look-up happens before the tenant is known.
    const auth = await c.query('SELECT tenant_id FROM authenticate_agent($1)', [tokenB]);
    assert.deepEqual(auth.rows.map((r) => r.tenant_id), [tenantB]);
  });
});

/**
 * Relations with a tenant_id that may go without row-level security, each with the reason.
 * Empty: every one has it (migration 825 turns it on for partitions too).
 */
const WITHOUT_ROW_SECURITY = {};

test('every table and partition with a tenant_id has row-level security, and the roles cannot address a partition', async () => {
  await withClient('tierwise_owner', async (c) => {
    // Partitions made later (the rollups' retention, run by the jobs) are covered too.
    await c.query("SELECT maintain_rollup_partitions(now() + interval '3 days')");
    const { rows } = await c.query(`
      SELECT c.relname AS name, c.relrowsecurity AS rls, c.relispartition AS partition,
             has_table_privilege('tierwise_app', c.oid, 'SELECT') AS app_select,
             has_table_privilege('tierwise_jobs', c.oid, 'INSERT') AS jobs_insert
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
         AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
       ORDER BY 1`);
    assert.ok(rows.some((r) => r.name === 'volume_metrics_10s_default'), 'the catalogue lists partitions');
    assert.ok(rows.filter((r) => r.partition).length >= 9, 'the rollups\' partitions, the new ones included');
    const open = rows.filter((r) => !r.rls && !(r.name in WITHOUT_ROW_SECURITY)).map((r) => r.name);
    assert.deepEqual(open, [], 'relations with a tenant_id but no row-level security');
    const addressable = rows.filter((r) => r.partition && (r.app_select || r.jobs_insert)).map((r) => r.name);
    assert.deepEqual(addressable, [], 'partitions the roles may address directly');
  });
  // The hole itself: tierwise_app reading the default partition by name is refused.
  await withClient('tierwise_app', async (c) => {
    await assert.rejects(c.query('SELECT count(*) FROM volume_metrics_10s_default'), /permission denied/);
  });
});

test("a volume's interval rows are kept 7 days: older partitions are dropped", async () => {
  const tenant = randomUUID();
  await withClient('tierwise_owner', async (c) => {
    await c.query("INSERT INTO tenants (id, name) VALUES ($1, 'interval retention')", [tenant]);
    // Partitions as a run five days ago left them (from 12 days ago to 4 days ago).
    await c.query("SELECT maintain_rollup_partitions(now() - interval '5 days')");
    const ages = ['9 days', '15 days', '1 hour']; // 15 days: older than every partition, in the default one
    for (const age of ages) {
      await c.query(`INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds, read_ops,
          write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses,
          evicted_bytes, occupancy_bytes, capacity_bytes)
        VALUES ($1, 'vol', now() - $2::interval, 10, 1, 0, 4096, 0, 0, 0, 0, 0, 0, 0, 0)`, [tenant, age]);
    }
    const run = await c.query('SELECT * FROM maintain_rollup_partitions()');
    const row = run.rows.find((r) => r.relation === 'volume_metrics_10s');
    assert.ok(row?.dropped >= 1, 'the partition of 9 days ago dropped');
    assert.equal(row.resolution, '10s');
    const left = await c.query(`SELECT now() - interval_start < interval '7 days' AS recent FROM volume_metrics_10s WHERE tenant_id = $1`, [tenant]);
    assert.deepEqual(left.rows, [{ recent: true }], 'only the interval of an hour ago is kept');
    await c.query('DELETE FROM volume_metrics_10s WHERE tenant_id = $1', [tenant]);
    await c.query('DELETE FROM tenants WHERE id = $1', [tenant]);
  });
});

test("migration 900 moves each interval's cache health into its volume_metrics_10s row, and back", async () => {
  const since900 = migrations.filter((f) => f >= '1700000000900').length;
  const rollBack = () => { for (let i = 0; i < since900; i++) migrate('down'); };
  const tenant = randomUUID();
  const health = { configured_mode: 'write-back', effective_mode: 'write-through', dirty_bytes: '65536',
    latency_us_sum: { 4096: 80000 }, latency_ops: { 4096: 10 }, destage_errors: '3', tier_errors: '1' };
  const healthColumns = Object.keys(health).join(', ');
  rollBack();
  await withClient('tierwise_owner', async (c) => {
    await c.query("INSERT INTO tenants (id, name) VALUES ($1, 'cache health columns')", [tenant]);
    for (const volume of ['with-mode', 'without-mode']) {
      await c.query(`INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds, read_ops,
          write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses,
          evicted_bytes, occupancy_bytes, capacity_bytes)
        VALUES ($1, $2, date_trunc('second', now()), 10, 1, 0, 4096, 0, 0, 0, 0, 0, 0, 0, 0)`, [tenant, volume]);
    }
    await c.query(`INSERT INTO volume_cache_health_10s (tenant_id, volume_id, interval_start, ${healthColumns})
      VALUES ($1, 'with-mode', date_trunc('second', now()), $2, $3, $4, $5, $6, $7, $8)`, [tenant, ...Object.values(health)]);
  });
  migrate('up');
  const moved = await withClient('tierwise_owner', (c) => c.query(
    `SELECT volume_id, read_ops, ${healthColumns} FROM volume_metrics_10s WHERE tenant_id = $1 ORDER BY volume_id`, [tenant]));
  assert.deepEqual(moved.rows, [
    { volume_id: 'with-mode', read_ops: '1', ...health },
    { volume_id: 'without-mode', read_ops: '1', ...Object.fromEntries(Object.keys(health).map((k) => [k, null])) },
  ]);
  rollBack();
  const back = await withClient('tierwise_owner', (c) => c.query(
    `SELECT volume_id, ${healthColumns} FROM volume_cache_health_10s WHERE tenant_id = $1`, [tenant]));
  assert.deepEqual(back.rows, [{ volume_id: 'with-mode', ...health }]);
  migrate('up');
  await withClient('tierwise_owner', async (c) => {
    await c.query('DELETE FROM volume_metrics_10s WHERE tenant_id = $1', [tenant]);
    await c.query('DELETE FROM tenants WHERE id = $1', [tenant]);
  });
});

test("migration 905 moves a volume's 10 s rollup windows into their interval rows, and back", async () => {
  const since905 = migrations.filter((f) => f >= '1700000000905').length;
  const rollBack = () => { for (let i = 0; i < since905; i++) migrate('down'); };
  const tenant = randomUUID();
  const documents = { latency_us: { read: { 4096: [0, 3] } }, sources: { cache: {} }, workload: { outstanding: {} }, cpu: { host_us: {} } };
  const intervalSql = `INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds, read_ops,
      write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses,
      evicted_bytes, occupancy_bytes, capacity_bytes)
    VALUES ($1, $2, $3, 10, $4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)`;
  const windowSql = `INSERT INTO metric_rollups (tenant_id, scope, scope_id, resolution, window_start, volumes, read_ops,
      write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes,
      occupancy_bytes, capacity_bytes, latency_us, sources, workload, cpu)
    VALUES ($1, 'volume', $2, '10s', $3, 1, $4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, $5, $6, $7, $8)`;
  rollBack();
  await withClient('tierwise_owner', async (c) => {
    await c.query("INSERT INTO tenants (id, name) VALUES ($1, 'volume windows')", [tenant]);
    // 'one': an interval per window; 'restarted': two intervals in the window of 10:00:00.
    await c.query(intervalSql, [tenant, 'one', '2026-11-20T10:00:03Z', 5]);
    await c.query(windowSql, [tenant, 'one', '2026-11-20T10:00:00Z', 5, ...Object.values(documents)]);
    await c.query(intervalSql, [tenant, 'restarted', '2026-11-20T10:00:00Z', 2]);
    await c.query(intervalSql, [tenant, 'restarted', '2026-11-20T10:00:06Z', 3]);
    await c.query(windowSql, [tenant, 'restarted', '2026-11-20T10:00:00Z', 5, ...Object.values(documents)]);
  });
  migrate('up');
  const windows = () => withClient('tierwise_owner', async (c) => (await c.query(
    `SELECT scope_id, window_start::text AS start, read_ops::int AS reads, latency_us::text AS latency FROM rollup_windows
      WHERE tenant_id = $1 AND resolution = '10s' ORDER BY scope_id, window_start`, [tenant])).rows);
  const latency = JSON.stringify(documents.latency_us);
  assert.deepEqual(await windows(), [
    { scope_id: 'one', start: '2026-11-20 10:00:03+00', reads: 5, latency },
    { scope_id: 'restarted', start: '2026-11-20 10:00:00+00', reads: 5, latency },
  ], "the single interval's row is its window; the window of two intervals stays a rollup row, counted once");
  const left = await withClient('tierwise_owner', (c) => c.query(
    "SELECT scope_id FROM metric_rollups WHERE tenant_id = $1 AND scope = 'volume' AND resolution = '10s'", [tenant]));
  assert.deepEqual(left.rows, [{ scope_id: 'restarted' }]);
  // Jobs restored from a checkpoint older than 905 write an interval again whose rollup row the jobs before wrote.
  await withClient('tierwise_owner', async (c) => {
    await c.query(windowSql, [tenant, 'replayed', '2026-11-20T10:00:00Z', 4, ...Object.values(documents)]);
    await c.query(intervalSql, [tenant, 'replayed', '2026-11-20T10:00:02Z', 4]);
    await c.query(`UPDATE volume_metrics_10s SET latency_us = $2, sources = '{}', workload = '{}', cpu = '{}'
      WHERE tenant_id = $1 AND volume_id = 'replayed'`, [tenant, documents.latency_us]);
  });
  assert.deepEqual((await windows()).filter((w) => w.scope_id === 'replayed'),
    [{ scope_id: 'replayed', start: '2026-11-20 10:00:02+00', reads: 4, latency }], 'the interval counted once, as its row');
  await withClient('tierwise_owner', async (c) => {
    await c.query("DELETE FROM metric_rollups WHERE tenant_id = $1 AND scope_id = 'replayed'", [tenant]);
    await c.query("DELETE FROM volume_metrics_10s WHERE tenant_id = $1 AND volume_id = 'replayed'", [tenant]);
  });
  rollBack();
  const back = await withClient('tierwise_owner', (c) => c.query(
    `SELECT scope_id, window_start::text AS start, read_ops::int AS reads, latency_us::text AS latency FROM metric_rollups
      WHERE tenant_id = $1 AND scope = 'volume' AND resolution = '10s' ORDER BY scope_id`, [tenant]));
  assert.deepEqual(back.rows, [
    { scope_id: 'one', start: '2026-11-20 10:00:00+00', reads: 5, latency },
    { scope_id: 'restarted', start: '2026-11-20 10:00:00+00', reads: 5, latency },
  ]);
  migrate('up');
  await withClient('tierwise_owner', async (c) => {
    await c.query('DELETE FROM metric_rollups WHERE tenant_id = $1', [tenant]);
    await c.query('DELETE FROM volume_metrics_10s WHERE tenant_id = $1', [tenant]);
    await c.query('DELETE FROM tenants WHERE id = $1', [tenant]);
  });
});

test('every view with a tenant_id reads its tables as the querying role, under their row-level security', async () => {
  const views = await withClient('tierwise_owner', async (c) => (await c.query(`
    SELECT c.relname AS name, coalesce('security_invoker=true' = ANY (c.reloptions), false) AS invoker
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'v'
       AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
     ORDER BY 1`)).rows);
  assert.ok(views.some((v) => v.name === 'rollup_windows'), 'the catalogue lists views');
  assert.deepEqual(views.filter((v) => !v.invoker).map((v) => v.name), [], 'views that would read as their owner');
});

test('recommendations keep their history and take the measured hit ratio of the intervals they ran, warm, at the tier size', async () => {
  const tenant = randomUUID();
  const MIB256 = 256 * 1024 * 1024;
  await withClient('tierwise_jobs', async (c) => {
    await c.query("INSERT INTO tenants (id, name) VALUES ($1, 'measured')", [tenant]);
    const upsert = `INSERT INTO recommendations (tenant_id, volume_id, tier_bytes, media, policy, eviction,
        predicted_hit_ratio, achievable_hit_ratio, target_hit_ratio, inputs, explanation, window_name, replicas)
      VALUES ($1, 'vol', $2, 'ram', 'write-through', $4, $3, 0.9, 0.81, '{}', 'why', '24h', 0)
      ON CONFLICT (tenant_id, volume_id) DO UPDATE SET tier_bytes = EXCLUDED.tier_bytes, eviction = EXCLUDED.eviction,
        predicted_hit_ratio = EXCLUDED.predicted_hit_ratio, measured_hits = 0, measured_misses = 0,
        measured_hit_ratio = NULL, created_at = clock_timestamp()`;
    await assert.rejects(c.query(upsert, [tenant, MIB256, 0.8, 's3fifo']), (err) => err.code === '23514',
      "the eviction policy is one of the api's names");
    await c.query(upsert, [tenant, 2 * MIB256, 0.85, null]);
    await c.query(upsert, [tenant, MIB256, 0.8, 'sieve']);
    const interval = `INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds,
        read_ops, write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits,
        read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes)
      VALUES ($1, 'vol', $2, 10, 100, 10, 0, 0, $3, 50, $3, $4, 0, $5, $5)
      ON CONFLICT (tenant_id, volume_id, interval_start) DO UPDATE SET cache_hits = EXCLUDED.cache_hits,
        read_cache_hits = EXCLUDED.read_cache_hits, read_cache_misses = EXCLUDED.read_cache_misses`;
    // Not applied yet: an interval at the recommended size measures nothing.
    await c.query(interval, [tenant, '2025-12-31T23:59:00Z', 0, 100, MIB256]);
    assert.equal((await c.query('SELECT measured_hit_ratio FROM recommendations WHERE tenant_id = $1', [tenant])).rows[0].measured_hit_ratio, null);
    // Applied (policy version 1) and reported running by the agent at midnight.
    await withClient('tierwise_owner', async (o) => {
      await o.query("INSERT INTO hosts (tenant_id, host_id) VALUES ($1, 'h')", [tenant]);
      await o.query("INSERT INTO volumes (tenant_id, volume_id, host_id) VALUES ($1, 'vol', 'h')", [tenant]);
      await o.query(`INSERT INTO volume_policies (tenant_id, volume_id, version, mode, tier_bytes, media, eviction, source,
          updated_by_kind, updated_by_id, applied_version, applied_at)
        VALUES ($1, 'vol', 1, 'write-through', $2, 'ram', 's3-fifo', 'recommendation', 'api_key', gen_random_uuid(), 1, '2026-01-01T00:00:00Z')`,
        [tenant, MIB256]);
      await o.query(`INSERT INTO recommendation_decisions (tenant_id, volume_id, recommendation_created_at, decision, policy_version, actor_kind, actor_id)
        SELECT tenant_id, volume_id, created_at, 'applied', 1, 'api_key', gen_random_uuid() FROM recommendations WHERE tenant_id = $1`, [tenant]);
    });
    await c.query(interval, [tenant, '2026-01-01T00:00:00Z', 60, 40, MIB256]);
    // The metrics job rewrites an interval with its full aggregate: only the change counts.
    await c.query(interval, [tenant, '2026-01-01T00:00:00Z', 70, 30, MIB256]);
    await c.query(interval, [tenant, '2026-01-01T00:00:10Z', 80, 20, MIB256]);
    // An interval at another tier size is not a measurement of this recommendation.
    await c.query(interval, [tenant, '2026-01-01T00:00:20Z', 0, 100, 2 * MIB256]);
    const { rows } = await c.query(
      'SELECT measured_hit_ratio, hit_ratio_error, measured_seconds FROM recommendations WHERE tenant_id = $1', [tenant]);
    assert.equal(rows[0].measured_hit_ratio, 0.75, '150 read hits of 200 reads at 256 MiB');
    assert.equal(rows[0].measured_seconds, 20, 'two 10-second intervals');
    assert.ok(Math.abs(rows[0].hit_ratio_error - (0.75 - 0.8)) < 1e-12);
    // The metrics job's statement shape (multi-row upserts): one statement rewrites an interval and
    // inserts two of the same volume; every one of them counts (migration 885).
    await c.query(`INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds,
        read_ops, write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits,
        read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes)
      SELECT $1, 'vol', s, 10, 100, 10, 0, 0, h, 50, h, m, 0, $2, $2
        FROM unnest($3::timestamptz[], $4::bigint[], $5::bigint[]) AS i (s, h, m)
      ON CONFLICT (tenant_id, volume_id, interval_start) DO UPDATE SET cache_hits = EXCLUDED.cache_hits,
        read_cache_hits = EXCLUDED.read_cache_hits, read_cache_misses = EXCLUDED.read_cache_misses`,
    [tenant, MIB256, ['2026-01-01T00:00:10Z', '2026-01-01T00:00:40Z', '2026-01-01T00:00:50Z'], [85, 90, 100], [15, 10, 0]]);
    const batched = await c.query('SELECT measured_hit_ratio, measured_seconds FROM recommendations WHERE tenant_id = $1', [tenant]);
    assert.deepEqual(batched.rows[0], { measured_hit_ratio: 345 / 400, measured_seconds: 40 },
      '150 + 5 + 90 + 100 read hits of 400 reads, four 10-second intervals');
    const history = await c.query(
      'SELECT tier_bytes, eviction FROM recommendation_history WHERE tenant_id = $1 ORDER BY id', [tenant]);
    assert.deepEqual(history.rows.map((r) => [Number(r.tier_bytes), r.eviction]), [[2 * MIB256, null], [MIB256, 'sieve']],
      "one history row per prediction, with the eviction policy it was for, none for the measurements");
    // A new prediction for the same tier stays applied (the decision and its policy version carry
    // over) and its measurement goes on from the applied one's (migration 895): the same tier runs
    // on. A prediction for another tier is open.
    const decisions = async () => (await withClient('tierwise_owner', (o) => o.query(
      `SELECT d.decision, d.policy_version FROM recommendations r LEFT JOIN recommendation_decisions d
         ON d.tenant_id = r.tenant_id AND d.volume_id = r.volume_id AND d.recommendation_created_at = r.created_at
        WHERE r.tenant_id = $1`, [tenant]))).rows[0];
    const measured = async (table) => (await c.query(
      `SELECT predicted_hit_ratio, measured_hit_ratio, measured_seconds, hit_ratio_error FROM ${table}
        WHERE tenant_id = $1 ORDER BY created_at`, [tenant])).rows.map((r) =>
      [r.predicted_hit_ratio, r.measured_hit_ratio, r.measured_seconds, r.hit_ratio_error && Number(r.hit_ratio_error.toFixed(12))]);
    await c.query(upsert, [tenant, MIB256, 0.83, 'sieve']);
    assert.deepEqual(await decisions(), { decision: 'applied', policy_version: 1 });
    assert.deepEqual(await measured('recommendations'), [[0.83, 345 / 400, 40, Number((345 / 400 - 0.83).toFixed(12))]],
      'the new prediction starts from the measurement of the tier that runs');
    await c.query(interval, [tenant, '2026-01-01T00:00:30Z', 90, 10, MIB256]);
    assert.deepEqual((await measured('recommendation_history')).slice(1), [
      [0.8, 345 / 400, 40, Number((345 / 400 - 0.8).toFixed(12))],
      [0.83, 435 / 500, 50, Number((435 / 500 - 0.83).toFixed(12))],
    ], 'the replaced prediction keeps what was measured while it was current; the new one goes on');
    await c.query(upsert, [tenant, MIB256, 0.83, 'lru']);
    assert.deepEqual(await decisions(), { decision: null, policy_version: null }, 'another eviction policy is another tier');
  });
});

test('volume_mrcs.eviction_points: a JSON object of curves, {} by default, stored as written', async () => {
  const tenant = randomUUID();
  await withClient('tierwise_jobs', async (c) => {
    await c.query("INSERT INTO tenants (id, name) VALUES ($1, 'curves')", [tenant]);
    await c.query(`INSERT INTO volume_mrcs (tenant_id, volume_id, window_name, method, sampling_rate, points)
      VALUES ($1, 'vol', 'all', 'shards-fixed-size', 0.01, '[{"cache_bytes": 0, "miss_ratio": 1}]')`, [tenant]);
    const read = async () => (await c.query('SELECT eviction_points FROM volume_mrcs WHERE tenant_id = $1', [tenant])).rows[0].eviction_points;
    assert.deepEqual(await read(), {}, 'a row written without curves');
    const curves = { lru: [{ cache_bytes: 0, miss_ratio: 1 }], sieve: [{ cache_bytes: 0, miss_ratio: 1 }] };
    await c.query('UPDATE volume_mrcs SET eviction_points = $2 WHERE tenant_id = $1', [tenant, JSON.stringify(curves)]);
    assert.deepEqual(await read(), curves);
    const written = '{"sieve":[{"cache_bytes":0,"miss_ratio":1}],"lru":[]}';
    await c.query('UPDATE volume_mrcs SET eviction_points = $2 WHERE tenant_id = $1', [tenant, written]);
    const text = await c.query('SELECT eviction_points::text AS t FROM volume_mrcs WHERE tenant_id = $1', [tenant]);
    assert.equal(text.rows[0].t, written, 'json keeps the text the jobs wrote (migration 880)');
    for (const refused of [[], '"curves"']) {
      await assert.rejects(c.query('UPDATE volume_mrcs SET eviction_points = $2 WHERE tenant_id = $1', [tenant, JSON.stringify(refused)]),
        (err) => err.code === '23514', `${JSON.stringify(refused)} is not an object`);
    }
  });
});

test("the working-set history keeps each minute's newest estimate of every row a multi-row upsert wrote", async () => {
  const tenant = randomUUID();
  await withClient('tierwise_jobs', async (c) => {
    await c.query("INSERT INTO tenants (id, name) VALUES ($1, 'history')", [tenant]);
    // The jobs' statement shape: one row per working set, inserted or updated (docs/rollups.md).
    const upsert = (rows) => c.query(`INSERT INTO volume_working_sets (tenant_id, volume_id, window_name,
        window_start, window_end, wss_bytes, wss_read_bytes, wss_write_bytes, sampled_references, sampling_rate)
      SELECT $1, v.volume_id, '1h', '2026-01-01T00:00:00Z', v.window_end, v.wss_bytes, v.wss_bytes, 0, 1000, 0.01
        FROM unnest($2::text[], $3::timestamptz[], $4::bigint[]) AS v (volume_id, window_end, wss_bytes)
      ON CONFLICT (tenant_id, volume_id, window_name) DO UPDATE SET window_end = EXCLUDED.window_end,
        wss_bytes = EXCLUDED.wss_bytes, wss_read_bytes = EXCLUDED.wss_read_bytes`,
      [tenant, rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])]);
    await upsert([['a', '2026-01-01T00:10:05Z', 100], ['b', '2026-01-01T00:10:05Z', 200]]);
    // a updated in the same minute, b in the next, c inserted: one statement, both triggers.
    await upsert([['a', '2026-01-01T00:10:45Z', 110], ['b', '2026-01-01T00:11:05Z', 210], ['c', '2026-01-01T00:11:05Z', 300]]);
    const { rows } = await c.query(`SELECT volume_id, at, wss_bytes, wss_read_bytes FROM volume_working_set_history
      WHERE tenant_id = $1 ORDER BY volume_id, at`, [tenant]);
    assert.deepEqual(rows.map((r) => [r.volume_id, r.at.toISOString(), Number(r.wss_bytes), Number(r.wss_read_bytes)]), [
      ['a', '2026-01-01T00:10:00.000Z', 110, 110],
      ['b', '2026-01-01T00:10:00.000Z', 200, 200],
      ['b', '2026-01-01T00:11:00.000Z', 210, 210],
      ['c', '2026-01-01T00:11:00.000Z', 300, 300],
    ]);
  });
});
