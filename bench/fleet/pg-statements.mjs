/**
 * Where PostgreSQL's share of a volume-interval goes, statement by statement
 * (`bench/fleet/run.sh --pg-statements`): pg_stat_statements, with the statements that triggers
 * and functions run counted apart (track = all) and planning time counted.
 *
 * PG_STATEMENTS_SETTINGS: the server settings it needs; the stack must be started with them
 *   (TIERWISE_PG_SETTINGS, written by infra/local/postgres.sh on every start)
 * resetStatements(url) -> Promise: creates the extension when missing (url: a superuser's) and
 *   empties its counters (at the end of the warm-up); throws, saying so, when the server was
 *   started without the settings (a stack already running when the fleet started)
 * topStatements(url, {volumeIntervals, limit = 15}) -> Promise [{query, calls, rows, execMs,
 *   planMs, usPerVolumeInterval}], most time first: execution plus planning, µs per volume-interval
 *   of the measured span (statement text squeezed to one line, cut at 160 characters)
 */
import pg from 'pg';

export const PG_STATEMENTS_SETTINGS = [
  "shared_preload_libraries = 'pg_stat_statements'",
  "pg_stat_statements.track = 'all'",
  'pg_stat_statements.track_planning = on',
].join('\n');

async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function resetStatements(url) {
  return withClient(url, async (client) => {
    const { rows } = await client.query('SHOW shared_preload_libraries');
    if (!rows[0].shared_preload_libraries.includes('pg_stat_statements')) {
      throw new Error('--pg-statements: PostgreSQL runs without pg_stat_statements (the stack was already up);'
        + ' stop it (./tierwise down with the fleet\'s TIERWISE_PORT_BASE and TIERWISE_STATE_DIR) and run again');
    }
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await client.query('SELECT pg_stat_statements_reset()');
  });
}

export function topStatements(url, { volumeIntervals, limit = 15 }) {
  return withClient(url, async (client) => {
    const { rows } = await client.query(
      `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 160) AS query, calls, rows,
              total_exec_time AS exec_ms, total_plan_time AS plan_ms
         FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT $1`, [limit]);
    return rows.map((r) => ({
      query: r.query,
      calls: Number(r.calls),
      rows: Number(r.rows),
      execMs: Math.round(r.exec_ms),
      planMs: Math.round(r.plan_ms),
      usPerVolumeInterval: Number(((r.exec_ms + r.plan_ms) * 1000 / volumeIntervals).toFixed(1)),
    }));
  });
}
