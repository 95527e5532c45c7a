import { Logger } from '@nestjs/common';
import pg from 'pg';

/** Delay before reopening a LISTEN connection that failed, milliseconds. */
export const LISTEN_RECONNECT_MS = 1000;

/**
 * One dedicated PostgreSQL connection that LISTENs on `channels` (PostgreSQL "LISTEN"/"NOTIFY":
 * a notification reaches the listeners connected when its transaction commits, none later).
 *
 * Lifecycle: {@link start} opens the connection and LISTENs; when it fails it is reopened after
 * {@link LISTEN_RECONNECT_MS} until {@link stop}. While it is down notifications are lost, so a
 * user that caches on the strength of them asks {@link listening} and {@link epoch}: the epoch
 * changes at every connection, loss and notification, so a value cached at one epoch is known to
 * have seen every notification sent since only while the epoch is the same.
 */
export class PgListener {
  private readonly logger: Logger;
  private client: pg.Client | null = null;
  private closing = false;
  private retry: NodeJS.Timeout | null = null;
  private currentEpoch = 0;

  /**
   * @param connectionString the role to connect as (NOTIFY payloads are visible to any role)
   * @param applicationName the connection's application_name in pg_stat_activity
   * @param channels the channels to LISTEN on (identifiers, not quoted)
   * @param onNotification called with each notification's channel and payload ('' when none)
   */
  constructor(
    private readonly connectionString: string,
    private readonly applicationName: string,
    private readonly channels: readonly string[],
    private readonly onNotification: (channel: string, payload: string) => void,
  ) {
    this.logger = new Logger(`PgListener(${channels.join(', ')})`);
  }

  /** True while the connection is open and LISTENing. */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Changes at every connection, loss and notification (see the class comment). */
  get epoch(): number {
    return this.currentEpoch;
  }

  /** Opens the connection in the background; never rejects (failures are retried, logged). */
  start(): void {
    void this.connect();
  }

  /** Closes the connection and stops reconnecting. */
  async stop(): Promise<void> {
    this.closing = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    this.currentEpoch += 1;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: this.applicationName });
    client.on('notification', (message) => {
      this.currentEpoch += 1;
      this.onNotification(message.channel, message.payload ?? '');
    });
    client.on('error', (error) => this.reconnect(client, error));
    try {
      await client.connect();
      for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
      if (this.closing) {
        await client.end();
        return;
      }
      this.client = client;
      this.currentEpoch += 1;
    } catch (error) {
      this.reconnect(client, error as Error);
    }
  }

  private reconnect(client: pg.Client, error: Error): void {
    this.currentEpoch += 1;
    if (this.client === client) this.client = null;
    if (this.closing || this.retry) return;
    this.logger.warn(`LISTEN connection failed (${error.message}); reconnecting in ${LISTEN_RECONNECT_MS} ms`);
    void client.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, LISTEN_RECONNECT_MS);
  }
}
