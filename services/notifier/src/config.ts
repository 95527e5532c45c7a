import { type Env, type EnvName, loadEnv } from '@tierwise/common';

/** The TIERWISE_* variables the notifier reads (ENV_SCHEMA in @tierwise/common documents each). */
export const NOTIFIER_ENV = [
  'TIERWISE_PG_JOBS_URL',
  'TIERWISE_SMTP_URL',
  'TIERWISE_MAIL_FROM',
  'TIERWISE_WEB_URL',
  'TIERWISE_API_URL',
  'TIERWISE_SLACK_API_URL',
  'TIERWISE_SLACK_WEBHOOK_ORIGIN',
  'TIERWISE_ALERT_INTERVAL_SECONDS',
  'TIERWISE_NOTIFIER_PORT',
] as const satisfies readonly EnvName[];

export type NotifierEnv = Env<(typeof NOTIFIER_ENV)[number]>;

/**
 * Reads and validates the notifier's environment.
 * @throws EnvError naming every missing or malformed variable.
 */
export function loadNotifierEnv(source: NodeJS.ProcessEnv = process.env): NotifierEnv {
  return loadEnv(NOTIFIER_ENV, source);
}
