import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { InjectEnv } from '../config/config.module.js';
import type { Env } from '../config/env.js';
import { DatabaseService } from '../database/database.service.js';
import { PgListener } from '../database/pg-listener.js';
import { type AgentPrincipal, agentCredentialSha256, authenticateAgentCredential } from './agent-auth.js';

/**
 * The channel db/migrations/1700000000870_agent_credential_notify.sql notifies (payload: the
 * agent id, '*' for a TRUNCATE) when an agent's credential is revoked, replaced or deleted.
 */
export const AGENT_CREDENTIAL_CHANNEL = 'tierwise_agent_credential';

/** How long a credential found live is trusted without asking PostgreSQL again, milliseconds. */
export const AGENT_CREDENTIAL_TTL_MS = 60_000;

/** Most credentials remembered; the least recently used is forgotten first (a fleet's agents, with room). */
export const AGENT_CREDENTIAL_CACHE_ENTRIES = 100_000;

interface Cached {
  principal: AgentPrincipal;
  /** The listener's epoch when it was looked up. */
  epoch: number;
}

/**
 * Agent authentication without a PostgreSQL query per request (docs/fleet-scale.md "Credential
 * cache"): a credential found live is remembered, by its SHA-256, for
 * {@link AGENT_CREDENTIAL_TTL_MS}, and only while a LISTEN connection on
 * {@link AGENT_CREDENTIAL_CHANNEL} has been up without a break since it was looked up. Any
 * notification on the channel (a revocation, a replaced credential, a deleted agent or tenant)
 * forgets every remembered credential, so a revoked agent is refused as soon as the notification
 * of the revoking commit arrives; while the connection is down nothing is remembered and every
 * request asks PostgreSQL, as without the cache. Unknown and revoked credentials are never
 * remembered: they are asked about every time, and refused with the reason.
 *
 * Lifecycle: the LISTEN connection opens at module init and closes at module destroy.
 */
@Injectable()
export class AgentCredentialCache implements OnModuleInit, OnModuleDestroy {
  private readonly live = new LRUCache<string, Cached>({ max: AGENT_CREDENTIAL_CACHE_ENTRIES, ttl: AGENT_CREDENTIAL_TTL_MS });
  private readonly listener: PgListener;

  constructor(
    private readonly database: DatabaseService,
    @InjectEnv() env: Env<'TIERWISE_PG_APP_URL'>,
  ) {
    this.listener = new PgListener(env.TIERWISE_PG_APP_URL, 'tierwise-credential-listen', [AGENT_CREDENTIAL_CHANNEL], () => this.live.clear());
  }

  onModuleInit(): void {
    this.listener.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.listener.stop();
  }

  /**
   * The agent whose credential `authorization` (`Bearer <agent credential>`) carries, if it is
   * not revoked: from memory when remembered (see the class comment), else from PostgreSQL.
   * @throws ApiError 401 `unauthorized` (missing or unknown credential) or `agent_revoked`.
   */
  async authenticate(authorization: string | undefined): Promise<AgentPrincipal> {
    const sha = agentCredentialSha256(authorization);
    const cached = this.live.get(sha);
    if (cached && this.listener.listening && cached.epoch === this.listener.epoch) {
      return cached.principal;
    }
    const epoch = this.listener.epoch;
    const principal = await authenticateAgentCredential(this.database, sha);
    // Remembered only if no notification (and no loss of the connection) came during the lookup.
    if (this.listener.listening && epoch === this.listener.epoch) {
      this.live.set(sha, { principal, epoch });
    }
    return principal;
  }
}
