import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type Env, InjectEnv } from '@tierwise/common';
import { EventEmitter } from 'node:events';
import pg from 'pg';

/** The channel db/migrations/1700000000710_policy_pull.sql notifies (payload: the tenant id) when a desired version changes. */
export const POLICY_CHANNEL = 'tierwise_volume_policy';

/** Delay before reconnecting the LISTEN connection after it failed, milliseconds. */
const RECONNECT_MS = 1000;

/**
 * Wakes the long-polls of GET /v1/agent/policies when a tenant's desired policy changes.
 *
 * Lifecycle: at module init it opens one dedicated connection (tierwise_app) and runs
 * `LISTEN tierwise_volume_policy`; every notification is emitted under its tenant id. When the
 * connection fails it is reopened after {@link RECONNECT_MS}; meanwhile waiters still end at
 * their timeout (the controller re-reads the database then), so a lost notification only
 * delays an answer, never loses a change. At module destroy the connection is closed.
 */
@Injectable()
export class PolicyChangeListener implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(PolicyChangeListener.name);
  private readonly changes = new EventEmitter().setMaxListeners(0);
  private client: pg.Client | null = null;
  private closing = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(@InjectEnv() private readonly env: Env<'TIERWISE_PG_APP_URL'>) {}

  onModuleInit(): void {
    void this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  /**
   * Resolves true when a policy of `tenantId` changes within `ms` milliseconds, false at the
   * timeout or when `signal` aborts (the agent hung up). Never rejects.
   */
  waitForChange(tenantId: string, ms: number, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (changed: boolean): void => {
        clearTimeout(timer);
        this.changes.off(tenantId, onChange);
        signal.removeEventListener('abort', onAbort);
        resolve(changed);
      };
      const onChange = (): void => done(true);
      const onAbort = (): void => done(false);
      const timer = setTimeout(() => done(false), ms);
      this.changes.on(tenantId, onChange);
      signal.addEventListener('abort', onAbort);
      if (signal.aborted) done(false);
    });
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.env.TIERWISE_PG_APP_URL, application_name: 'tierwise-ingest-listen' });
    client.on('notification', (message) => {
      if (message.channel === POLICY_CHANNEL && message.payload) this.changes.emit(message.payload);
    });
    client.on('error', (error) => this.reconnect(client, error));
    try {
      await client.connect();
      await client.query(`LISTEN ${POLICY_CHANNEL}`);
      this.client = client;
    } catch (error) {
      this.reconnect(client, error as Error);
    }
  }

  private reconnect(client: pg.Client, error: Error): void {
    if (this.closing || this.retry) return;
    this.logger.warn(`policy change LISTEN connection failed (${error.message}); reconnecting in ${RECONNECT_MS} ms`);
    this.client = null;
    void client.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, RECONNECT_MS);
  }
}
