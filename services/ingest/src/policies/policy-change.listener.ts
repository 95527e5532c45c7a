import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { type Env, InjectEnv, PgListener } from '@tierwise/common';
import { EventEmitter } from 'node:events';

/** The channel db/migrations/1700000000710_policy_pull.sql notifies (payload: the tenant id) when a desired version changes. */
export const POLICY_CHANNEL = 'tierwise_volume_policy';

/**
 * Wakes the long-polls of GET /v1/agent/policies when a tenant's desired policy changes.
 *
 * Lifecycle: at module init it opens one dedicated connection (tierwise_app, {@link PgListener})
 * LISTENing on {@link POLICY_CHANNEL}; every notification is emitted under its tenant id. While
 * the connection is down (it is reopened) waiters still end at their timeout (the controller
 * re-reads the database then), so a lost notification only delays an answer, never loses a
 * change. At module destroy the connection is closed.
 */
@Injectable()
export class PolicyChangeListener implements OnModuleInit, OnModuleDestroy {
  private readonly changes = new EventEmitter().setMaxListeners(0);
  private readonly listener: PgListener;

  constructor(@InjectEnv() env: Env<'TIERWISE_PG_APP_URL'>) {
    this.listener = new PgListener(env.TIERWISE_PG_APP_URL, 'tierwise-ingest-listen', [POLICY_CHANNEL], (_channel, tenantId) => {
      if (tenantId) this.changes.emit(tenantId);
    });
  }

  onModuleInit(): void {
    this.listener.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.listener.stop();
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
}
