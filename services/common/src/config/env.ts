import { z } from 'zod';
import { trustedOriginProblem } from '../egress/egress-policy.js';

/**
 * The TIERWISE_* environment variables the services read, as written by
 * infra/local/env.sh (profiles demo and test) or by the deployment.
 */
const port = z.coerce.number().int().min(1).max(65_535);
const postgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' });
const kafkaBrokers = z
  .string()
  .transform((value) => value.split(',').map((broker) => broker.trim()).filter(Boolean))
  .pipe(z.array(z.string().regex(/^[\w.-]+:\d{1,5}$/, 'each broker must be host:port')).min(1));

export const ENV_SCHEMA = {
  /** PostgreSQL URL of the tierwise_app role (row-level security applies). */
  TIERWISE_PG_APP_URL: postgresUrl,
  /** PostgreSQL URL of the tierwise_owner role (creates tenants; bypasses RLS as owner). */
  TIERWISE_PG_OWNER_URL: postgresUrl,
  /** Comma-separated Kafka bootstrap brokers, host:port. */
  TIERWISE_KAFKA_BROKERS: kafkaBrokers,
  /**
   * Kafka security protocol (Kafka's `security.protocol` values): PLAINTEXT (local stack), SSL,
   * SASL_SSL (Amazon MSK with SASL/SCRAM), SASL_PLAINTEXT (tests only). See `kafkaSecurity`.
   */
  TIERWISE_KAFKA_SECURITY_PROTOCOL: z.enum(['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL']).default('PLAINTEXT'),
  /** SASL mechanism with SASL_*: SCRAM-SHA-512 (MSK's) or SCRAM-SHA-256. */
  TIERWISE_KAFKA_SASL_MECHANISM: z.enum(['SCRAM-SHA-256', 'SCRAM-SHA-512']).default('SCRAM-SHA-512'),
  /** SASL user name (required with SASL_*; on AWS from Secrets Manager). */
  TIERWISE_KAFKA_SASL_USERNAME: z.string().min(1).optional(),
  /** SASL password (required with SASL_*; on AWS from Secrets Manager). */
  TIERWISE_KAFKA_SASL_PASSWORD: z.string().min(1).optional(),
  /** PEM file of the CA that signed the brokers' certificates (default: Node's trusted CAs, which cover MSK). */
  TIERWISE_KAFKA_SSL_CA_FILE: z.string().min(1).optional(),
  /** TCP port of the ingest service on 127.0.0.1. */
  TIERWISE_INGEST_PORT: port,
  /** TCP port of the api service on 127.0.0.1. */
  TIERWISE_API_PORT: port,
  /** Requests one credential (API key, else client address) may make to the api's /v1 per minute (default 600). */
  TIERWISE_API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** Enrollments (POST /v1/agents/enroll) one client address may attempt on the agent gateway per minute (default 60). */
  TIERWISE_ENROLL_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  /**
   * IP address the HTTP services listen on (default 127.0.0.1, the local stack's rule); a
   * deployment behind a load balancer sets 0.0.0.0 (infra/terraform sets it on every task).
   */
  /**
   * The api's URL as agents reach it, written into the install script (GET /install.sh); absent:
   * the URL the script was fetched from (scheme and Host of the request).
   */
  TIERWISE_PUBLIC_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional(),
  /** Ingest's URL as agents reach it, written into the install script; absent: the script asks for --ingest-url. */
  TIERWISE_PUBLIC_INGEST_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' }).optional(),
  /**
   * Directory of the agent packages the api serves under /downloads/agent/ (the .deb, the tarball
   * and their SHA256SUMS, made by edge-agent/packaging/build-packages.sh); absent: none are served.
   */
  TIERWISE_AGENT_PACKAGES_DIR: z.string().min(1).optional(),
  /** PostgreSQL URL of the tierwise_jobs role (BYPASSRLS: the notifier serves every tenant; each query names the tenant of the rows it joins). */
  TIERWISE_PG_JOBS_URL: postgresUrl,
  /** SMTP URL of the notifier's mail relay (nodemailer; default the local stack's development mailbox). */
  TIERWISE_SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).default('smtp://127.0.0.1:2525'),
  /** The From address of the notifier's mails. */
  TIERWISE_MAIL_FROM: z.string().min(3).default('Tierwise <notifications@tierwise.local>'),
  /** The portal's base URL, for links in messages. */
  TIERWISE_WEB_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  /** The api's public base URL, for the one-click unsubscribe links of the notifier's mails. */
  TIERWISE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  /** Slack's Web API base (chat.postMessage; an operator setting, never a tenant's). */
  TIERWISE_SLACK_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://slack.com/api'),
  /** Seconds between the notifier's evaluations of the alert rules. */
  TIERWISE_ALERT_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  /** Port of the notifier's GET /healthz on 127.0.0.1. */
  TIERWISE_NOTIFIER_PORT: port,
  TIERWISE_BIND_ADDRESS: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }).default('127.0.0.1'),
  /**
   * The one origin tenants' Slack incoming-webhook URLs may name (default https://hooks.slack.com,
   * Slack's documented webhook host): the api refuses other targets and the notifier's egress
   * guard refuses them again at send. https only; plain http only on a loopback IP literal (tests'
   * local Slack receiver). See docs/notifications.md.
   */
  TIERWISE_SLACK_WEBHOOK_ORIGIN: z
    .string()
    .default('https://hooks.slack.com')
    .superRefine((value, context) => {
      const problem = trustedOriginProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
} as const;

export type EnvName = keyof typeof ENV_SCHEMA;

/** The parsed values of the variables `K` (ports as numbers, brokers as a string array). */
export type Env<K extends EnvName = EnvName> = { readonly [P in K]: z.output<(typeof ENV_SCHEMA)[P]> };

/** Thrown by {@link loadEnv} with one line per missing or malformed variable. */
export class EnvError extends Error {
  override readonly name = 'EnvError';
}

/**
 * Reads and validates the environment variables `names`.
 *
 * @param names the variables the caller needs; all are required.
 * @param source the environment to read (default `process.env`).
 * @returns the parsed values, keyed by variable name.
 * @throws EnvError naming every missing or malformed variable, with a hint where they come from.
 */
export function loadEnv<const K extends EnvName>(names: readonly K[], source: NodeJS.ProcessEnv = process.env): Env<K> {
  const shape = Object.fromEntries(names.map((name) => [name, ENV_SCHEMA[name]]));
  const result = z.object(shape).safeParse(source);
  if (result.success) {
    return result.data as Env<K>;
  }
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return source[name] === undefined ? `${name} is not set` : `${name} is invalid: ${issue.message}`;
  });
  throw new EnvError(
    `configuration error:\n  ${problems.join('\n  ')}\n` +
      `(the TIERWISE_* variables come from infra/local/env.sh: \`source infra/local/env.sh\`)`,
  );
}
