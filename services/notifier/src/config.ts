import { z } from 'zod';
import { ENV_SCHEMA, EnvError } from '@tierwise/common';

/**
 * The notifier's settings, from TIERWISE_* variables (infra/local/env.sh):
 * - TIERWISE_PG_JOBS_URL: PostgreSQL as tierwise_jobs (BYPASSRLS: the notifier serves every
 *   tenant; each query names the tenant of the rows it joins).
 * - TIERWISE_SMTP_URL: nodemailer SMTP URL (default smtp://127.0.0.1:2525, the local stack).
 * - TIERWISE_MAIL_FROM: the From address (default "Tierwise <notifications@tierwise.local>").
 * - TIERWISE_WEB_URL: the portal's base URL, for links in messages.
 * - TIERWISE_API_URL: the api's public base URL, for the one-click unsubscribe links.
 * - TIERWISE_SLACK_API_URL: Slack's Web API base (default https://slack.com/api).
 * - TIERWISE_SLACK_WEBHOOK_ORIGIN: the one origin tenants' incoming-webhook URLs may name
 *   (default https://hooks.slack.com; see ENV_SCHEMA in @tierwise/common).
 * - TIERWISE_ALERT_INTERVAL_SECONDS: seconds between evaluations of the alert rules (default 30).
 * - TIERWISE_NOTIFIER_PORT: port of GET /healthz on 127.0.0.1.
 */
const schema = z.object({
  TIERWISE_PG_JOBS_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }),
  TIERWISE_SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).default('smtp://127.0.0.1:2525'),
  TIERWISE_MAIL_FROM: z.string().min(3).default('Tierwise <notifications@tierwise.local>'),
  TIERWISE_WEB_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  TIERWISE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  TIERWISE_SLACK_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://slack.com/api'),
  TIERWISE_SLACK_WEBHOOK_ORIGIN: ENV_SCHEMA.TIERWISE_SLACK_WEBHOOK_ORIGIN,
  TIERWISE_ALERT_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  TIERWISE_NOTIFIER_PORT: z.coerce.number().int().min(1).max(65_535),
});

export type NotifierEnv = z.output<typeof schema>;

/**
 * Reads and validates the notifier's environment.
 *
 * @throws EnvError naming every missing or malformed variable.
 */
export function loadNotifierEnv(source: NodeJS.ProcessEnv = process.env): NotifierEnv {
  const result = schema.safeParse(source);
  if (result.success) {
    return result.data;
  }
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return source[name] === undefined ? `${name} is not set` : `${name} is invalid: ${issue.message}`;
  });
  throw new EnvError(`configuration error:\n  ${problems.join('\n  ')}\n(the TIERWISE_* variables come from infra/local/env.sh)`);
}
