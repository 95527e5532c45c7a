import { ConsoleLogger } from '@nestjs/common';
import pg from 'pg';
import { loadNotifierEnv, type NotifierEnv } from './config.js';
import { startHealthServer } from './health-server.js';
import { Notifier } from './notifier.js';
import { EmailTransport } from './transports/email-transport.js';

/** `node dist/main.js`: the notifier worker plus GET /healthz; stops cleanly on SIGTERM/SIGINT. */
let env: NotifierEnv;
try {
  env = loadNotifierEnv();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
const logger = new ConsoleLogger('notifier', { json: true });
const pool = new pg.Pool({ connectionString: env.TIERWISE_PG_JOBS_URL, max: 4, application_name: 'tierwise-notifier' });
const email = new EmailTransport(env.TIERWISE_SMTP_URL, env.TIERWISE_MAIL_FROM);
const notifier = new Notifier(pool, {
  webUrl: env.TIERWISE_WEB_URL,
  apiUrl: env.TIERWISE_API_URL,
  slackApiUrl: env.TIERWISE_SLACK_API_URL,
  slackWebhookOrigin: env.TIERWISE_SLACK_WEBHOOK_ORIGIN,
  alertIntervalSeconds: env.TIERWISE_ALERT_INTERVAL_SECONDS,
  email,
  logger,
});
const health = await startHealthServer(pool, env.TIERWISE_NOTIFIER_PORT);
notifier.start();
logger.log({ event: 'started', port: env.TIERWISE_NOTIFIER_PORT });

const shutdown = async (): Promise<void> => {
  await notifier.stop();
  health.closeAllConnections();
  health.close();
  email.close();
  await pool.end();
  logger.log({ event: 'stopped' });
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
