import { credentialPrefix, generateCredential, sha256Hex } from '../crypto/credentials.js';
import type { Queryable } from '../database/transaction.js';

/** A new tenant with its first credentials; the agent token and API key are shown only here. */
export interface ProvisionedTenant {
  tenant_id: string;
  agent_id: string;
  /** Bearer token of the agent for ingest (stored only as its SHA-256). */
  agent_token: string;
  /** Bearer key for the api, of the scope asked for (default read; stored only as its SHA-256). */
  api_key: string;
}

/**
 * Creates a tenant, one agent credential and one API key (read unless `apiKeyScope` says
 * read-write, which acts as the tenant's admin). Must run as tierwise_owner
 * (the app role cannot create tenants), inside the caller's transaction so that a failure
 * leaves nothing behind.
 *
 * @param db a client of the owner role, in a transaction.
 * @param tenantName display name of the tenant.
 */
export async function provisionTenant(db: Queryable, tenantName: string, apiKeyScope: 'read' | 'read-write' = 'read'): Promise<ProvisionedTenant> {
  const agentToken = generateCredential('twa_');
  const apiKey = generateCredential('twk_');
  const tenant = await db.query<{ id: string }>('INSERT INTO tenants (name) VALUES ($1) RETURNING id', [tenantName]);
  const tenantId = tenant.rows[0].id;
  const agent = await db.query<{ id: string }>(
    'INSERT INTO agents (tenant_id, name, token_sha256) VALUES ($1, $2, $3) RETURNING id',
    [tenantId, 'default agent', sha256Hex(agentToken)],
  );
  await db.query(`INSERT INTO api_keys (tenant_id, name, key_sha256, key_prefix, scope) VALUES ($1, $2, $3, $4, $5)`, [
    tenantId,
    `default ${apiKeyScope} key`,
    sha256Hex(apiKey),
    credentialPrefix(apiKey),
    apiKeyScope,
  ]);
  return { tenant_id: tenantId, agent_id: agent.rows[0].id, agent_token: agentToken, api_key: apiKey };
}
