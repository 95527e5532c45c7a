import type { EnvName } from '@tierwise/common';

/**
 * The TIERWISE_* variables the api needs (infra/local/env.sh); the rate limit and the Slack
 * webhook origin have defaults, the install script's are optional.
 */
export const API_ENV = [
  'TIERWISE_PG_APP_URL',
  'TIERWISE_API_PORT',
  'TIERWISE_API_RATE_LIMIT_PER_MINUTE',
  'TIERWISE_PUBLIC_API_URL',
  'TIERWISE_PUBLIC_INGEST_URL',
  'TIERWISE_AGENT_PACKAGES_DIR',
  'TIERWISE_SLACK_WEBHOOK_ORIGIN',
] as const satisfies readonly EnvName[];

/**
 * The working-set / miss-ratio-curve window the api reports: 'all' = everything received so
 * far (volume_working_sets.window_name, volume_mrcs.window_name; db/migrations spine).
 */
export const REPORTED_WINDOW = 'all';
