/**
 * `npm run -w @tierwise/api seed -- --tenant-name NAME [--email ADDRESS] [--login ADDRESS] [--scope read|read-write]`:
 * creates a tenant with one agent credential and one API key (scope read by default; read-write
 * acts as the tenant's admin and can make more keys), connected as tierwise_owner ($TIERWISE_PG_OWNER_URL),
 * and prints one JSON line {tenant_id, agent_id, agent_token, api_key}. The token and key are
 * stored only as SHA-256 digests: this line is the only place they appear.
 * With --email, the same transaction adds an e-mail notification channel (recommendation events)
 * for ADDRESS, and the line also holds its id as email_channel_id.
 * With --login, ADDRESS becomes a verified portal user, owner of the tenant, with a random
 * password; the line also holds login_email and login_password (see seed-login.ts).
 */
import { parseArgs } from 'node:util';
import { EnvError, inTransaction, loadEnv, provisionTenant } from '@tierwise/common';
import pg from 'pg';
import { seedLogin } from './seed-login.js';

const USAGE = 'usage: npm run -w @tierwise/api seed -- --tenant-name NAME [--email ADDRESS] [--login ADDRESS] [--scope read|read-write]';
// The shape notification_channels_target_valid accepts (db/migrations/1700000000001_notifier.sql).
const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+$/;

function fail(message: string): never {
  process.stderr.write(`seed: ${message}\n`);
  process.exit(2);
}

let tenantName: string | undefined;
let email: string | undefined;
let scope: string | undefined;
let login: string | undefined;
try {
  ({
    values: { 'tenant-name': tenantName, email, scope, login },
  } = parseArgs({ options: { 'tenant-name': { type: 'string' }, email: { type: 'string' }, scope: { type: 'string' }, login: { type: 'string' } } }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
if (!tenantName?.trim()) {
  fail('--tenant-name NAME is required (a non-empty display name)');
}
if (scope !== undefined && scope !== 'read' && scope !== 'read-write') {
  fail(`--scope must be read or read-write (got '${scope}')`);
}
const apiKeyScope = scope === 'read-write' ? 'read-write' : 'read';
if (email !== undefined && !EMAIL_PATTERN.test(email)) {
  fail(`--email must be an e-mail address like ops@example.com (got '${email}')`);
}
if (login !== undefined && !EMAIL_PATTERN.test(login)) {
  fail(`--login must be an e-mail address like admin@example.com (got '${login}')`);
}

let ownerUrl: string;
try {
  ownerUrl = loadEnv(['TIERWISE_PG_OWNER_URL']).TIERWISE_PG_OWNER_URL;
} catch (error) {
  fail(error instanceof EnvError ? error.message : String(error));
}

const pool = new pg.Pool({ connectionString: ownerUrl, max: 1 });
try {
  const seeded = await inTransaction(pool, async (db) => {
    const provisioned = await provisionTenant(db, tenantName.trim(), apiKeyScope);
    const tenant = login === undefined ? provisioned : { ...provisioned, ...(await seedLogin(db, provisioned.tenant_id, login.toLowerCase(), `${tenantName.trim()} owner`)) };
    if (email === undefined) {
      return tenant;
    }
    const channel = await db.query<{ id: string }>(
      `INSERT INTO notification_channels (tenant_id, kind, name, target) VALUES ($1, 'email', $2, $2) RETURNING id`,
      [tenant.tenant_id, email],
    );
    await db.query(
      `INSERT INTO notification_routes (tenant_id, channel_id, event_kinds) VALUES ($1, $2, '{recommendation.created,recommendation.updated}')`,
      [tenant.tenant_id, channel.rows[0].id],
    );
    return { ...tenant, email_channel_id: channel.rows[0].id };
  });
  process.stdout.write(`${JSON.stringify(seeded)}\n`);
} finally {
  await pool.end();
}
