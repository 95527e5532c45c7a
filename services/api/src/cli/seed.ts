/**
 * `npm run -w @tierwise/api seed -- --tenant-name NAME`: creates a tenant with one agent
 * credential and one read API key, connected as tierwise_owner ($TIERWISE_PG_OWNER_URL), and
 * prints one JSON line {tenant_id, agent_id, agent_token, api_key}. The token and key are
 * stored only as SHA-256 digests: this line is the only place they appear.
 */
import { parseArgs } from 'node:util';
import { EnvError, inTransaction, loadEnv, provisionTenant } from '@tierwise/common';
import pg from 'pg';

function fail(message: string): never {
  process.stderr.write(`seed: ${message}\n`);
  process.exit(2);
}

let tenantName: string | undefined;
try {
  ({ values: { 'tenant-name': tenantName } } = parseArgs({ options: { 'tenant-name': { type: 'string' } } }));
} catch (error) {
  fail(`${(error as Error).message}\nusage: npm run -w @tierwise/api seed -- --tenant-name NAME`);
}
if (!tenantName?.trim()) {
  fail('--tenant-name NAME is required (a non-empty display name)');
}

let ownerUrl: string;
try {
  ownerUrl = loadEnv(['TIERWISE_PG_OWNER_URL']).TIERWISE_PG_OWNER_URL;
} catch (error) {
  fail(error instanceof EnvError ? error.message : String(error));
}

const pool = new pg.Pool({ connectionString: ownerUrl, max: 1 });
try {
  const tenant = await inTransaction(pool, (db) => provisionTenant(db, tenantName.trim()));
  process.stdout.write(`${JSON.stringify(tenant)}\n`);
} finally {
  await pool.end();
}
