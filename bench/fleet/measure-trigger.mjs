/**
 * Paired micro-benchmark of the recommendation measurement on volume_metrics_10s (migration 885):
 * the row-level trigger of migration 795 against the per-statement triggers of 885, on the metrics
 * job's statement shape (multi-row `INSERT ... ON CONFLICT DO UPDATE` with bind parameters, every
 * row inserted and then rewritten). Each round runs in its own transaction on the given database,
 * with 885's Up or Down section applied inside it (whichever the database lacks), and is rolled
 * back; the order alternates by round. Prints µs per row per variant and round, then the medians.
 *
 *   node bench/fleet/measure-trigger.mjs --url postgres://postgres@127.0.0.1:25632/tierwise
 *     [--rows 128] [--statements 40] [--rounds 5]
 *
 * The database needs a tenant's volumes (a fleet run's, `bench/fleet/run.sh --keep-stack`).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    rows: { type: 'string', default: '128' },
    statements: { type: 'string', default: '40' },
    rounds: { type: 'string', default: '5' },
  },
});
if (!args.url) throw new Error('--url: a superuser connection URL of the database to measure');
const rows = Number(args.rows);
const statements = Number(args.statements);
const rounds = Number(args.rounds);

const migration = readFileSync(new URL('../../db/migrations/1700000000885_measure_recommendation_per_statement.sql', import.meta.url), 'utf8');
const [up, down] = migration.split('-- Down Migration');

const COLUMNS = 15;
const upsert = `INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds, read_ops,
    write_ops, read_bytes, write_bytes, cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes,
    occupancy_bytes, capacity_bytes)
  VALUES ${Array.from({ length: rows }, (_, r) => `(${Array.from({ length: COLUMNS }, (_, c) => `$${r * COLUMNS + c + 1}`).join(', ')})`).join(', ')}
  ON CONFLICT (tenant_id, volume_id, interval_start) DO UPDATE SET interval_seconds = EXCLUDED.interval_seconds,
    read_ops = EXCLUDED.read_ops, write_ops = EXCLUDED.write_ops, read_bytes = EXCLUDED.read_bytes,
    write_bytes = EXCLUDED.write_bytes, cache_hits = EXCLUDED.cache_hits, cache_misses = EXCLUDED.cache_misses,
    read_cache_hits = EXCLUDED.read_cache_hits, read_cache_misses = EXCLUDED.read_cache_misses,
    evicted_bytes = EXCLUDED.evicted_bytes, occupancy_bytes = EXCLUDED.occupancy_bytes,
    capacity_bytes = EXCLUDED.capacity_bytes`;

const client = new pg.Client({ connectionString: args.url });
await client.connect();
const volumes = (await client.query('SELECT tenant_id, volume_id FROM volumes ORDER BY tenant_id, volume_id LIMIT $1', [rows])).rows;
if (volumes.length < rows) throw new Error(`the database has ${volumes.length} volumes; --rows ${rows} needs as many`);
const applied = (await client.query("SELECT 1 FROM pg_proc WHERE proname = 'measure_recommendations'")).rowCount > 0;
const variants = { 'row-level (795)': applied ? down : null, 'per statement (885)': applied ? null : up };

/** µs per row of `statements` statements inserting, then as many rewriting, `rows` intervals. */
async function round(setup, firstSecond) {
  await client.query('BEGIN');
  try {
    if (setup) await client.query(setup);
    const start = process.hrtime.bigint();
    for (const rewrite of [false, true]) {
      for (let s = 0; s < statements; s += 1) {
        const at = new Date((firstSecond + s * 10) * 1000).toISOString();
        await client.query(upsert, volumes.flatMap((v) => [v.tenant_id, v.volume_id, at, 10, 100, 10, 409600, 40960,
          rewrite ? 90 : 80, 20, 70, 10, 0, 1 << 28, 1 << 28]));
      }
    }
    return Number(process.hrtime.bigint() - start) / 1000 / (2 * statements * rows);
  } finally {
    await client.query('ROLLBACK');
  }
}

const results = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
const future = Math.floor(Date.now() / 1000) + 10 * 86_400;
for (let r = 0; r < rounds; r += 1) {
  const order = r % 2 === 0 ? Object.keys(variants) : Object.keys(variants).reverse();
  for (const name of order) {
    const us = await round(variants[name], future);
    results[name].push(us);
    console.log(`round ${r + 1} ${name}: ${us.toFixed(1)} µs per row`);
  }
}
await client.end();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, xs] of Object.entries(results)) console.log(`median ${name}: ${median(xs).toFixed(1)} µs per row (${rows}-row statements)`);
