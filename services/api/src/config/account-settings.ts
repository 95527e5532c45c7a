import { randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ENV_SCHEMA } from '@tierwise/common';
import { z } from 'zod';

/** Optional TIERWISE_* variables of portal accounts; defaults follow OWASP's Session Management Cheat Sheet. */
const settingsSchema = z.object({
  /** The portal's base URL, for the links in account e-mails (infra/local/env.sh exports it). */
  TIERWISE_WEB_URL: ENV_SCHEMA.TIERWISE_WEB_URL.default('http://127.0.0.1:3000'),
  /** The api's public base URL; the OIDC redirect URI is <this>/v1/auth/oidc/callback. */
  TIERWISE_API_URL: ENV_SCHEMA.TIERWISE_API_URL.default('http://127.0.0.1:8080'),
  /**
   * Express 'trust proxy' (https://expressjs.com/en/guide/behind-proxies.html): hops (e.g. 1
   * behind one load balancer) or comma-separated addresses/CIDRs ('loopback'); unset: none.
   * Lets the api see the client's IP (X-Forwarded-For, for login limits) and HTTPS
   * (X-Forwarded-Proto, for Secure cookies) through a TLS-terminating proxy.
   */
  TIERWISE_TRUST_PROXY: z.string().regex(/^[\w.:/, -]+$/).optional(),
  /** Seconds a session may sit unused (idle expiry); OWASP: 15-30 minutes. */
  TIERWISE_SESSION_IDLE_SECONDS: z.coerce.number().int().min(60).default(30 * 60),
  /** Seconds a session lives at most (absolute expiry); OWASP: 4-8 hours. */
  TIERWISE_SESSION_ABSOLUTE_SECONDS: z.coerce.number().int().min(60).default(8 * 3600),
  /** Secret of the CSRF token HMAC (csrf-csrf); random per process when unset (set it when several api processes serve one portal). */
  TIERWISE_SESSION_SECRET: z.string().min(32).optional(),
  /** OpenID Connect issuer URL; OIDC login is off when unset. */
  TIERWISE_OIDC_ISSUER: z.url().optional(),
  TIERWISE_OIDC_CLIENT_ID: z.string().min(1).optional(),
  TIERWISE_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
});

/** OpenID Connect relying-party settings (present only when TIERWISE_OIDC_ISSUER is set). */
export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: string;
  /** Where the provider sends the browser back: <api url>/v1/auth/oidc/callback. */
  redirectUri: string;
}

/** Portal account settings, parsed once from the environment. */
export interface AccountSettings {
  portalUrl: string;
  /** Cookies are always Secure when the api's public URL is https (else when the request came over HTTPS). */
  secureCookies: boolean;
  /** Express 'trust proxy' value, or null. */
  trustProxy: number | string | null;
  sessionIdleSeconds: number;
  sessionAbsoluteSeconds: number;
  csrfSecret: string;
  oidc: OidcSettings | null;
}

/** Nest injection token of {@link AccountSettings}. */
export const ACCOUNT_SETTINGS = Symbol('AccountSettings');

/**
 * Reads the account settings from `source` (default process.env).
 * @throws Error naming each malformed variable, or an OIDC issuer without client id and secret.
 */
export function loadAccountSettings(source: NodeJS.ProcessEnv = process.env): AccountSettings {
  const parsed = settingsSchema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`account settings: ${parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`).join('; ')}`);
  }
  const env = parsed.data;
  if (env.TIERWISE_OIDC_ISSUER && !(env.TIERWISE_OIDC_CLIENT_ID && env.TIERWISE_OIDC_CLIENT_SECRET)) {
    throw new Error('account settings: TIERWISE_OIDC_ISSUER needs TIERWISE_OIDC_CLIENT_ID and TIERWISE_OIDC_CLIENT_SECRET');
  }
  if (!env.TIERWISE_SESSION_SECRET) {
    new Logger('accounts').warn('TIERWISE_SESSION_SECRET is not set: CSRF tokens are signed with a per-process key');
  }
  return {
    portalUrl: env.TIERWISE_WEB_URL.replace(/\/+$/, ''),
    secureCookies: env.TIERWISE_API_URL.startsWith('https:'),
    trustProxy: env.TIERWISE_TRUST_PROXY === undefined ? null : /^\d+$/.test(env.TIERWISE_TRUST_PROXY) ? Number(env.TIERWISE_TRUST_PROXY) : env.TIERWISE_TRUST_PROXY,
    sessionIdleSeconds: env.TIERWISE_SESSION_IDLE_SECONDS,
    sessionAbsoluteSeconds: env.TIERWISE_SESSION_ABSOLUTE_SECONDS,
    csrfSecret: env.TIERWISE_SESSION_SECRET ?? randomBytes(32).toString('base64url'),
    oidc: env.TIERWISE_OIDC_ISSUER
      ? {
          issuer: new URL(env.TIERWISE_OIDC_ISSUER),
          clientId: env.TIERWISE_OIDC_CLIENT_ID as string,
          clientSecret: env.TIERWISE_OIDC_CLIENT_SECRET as string,
          redirectUri: `${env.TIERWISE_API_URL.replace(/\/+$/, '')}/v1/auth/oidc/callback`,
        }
      : null,
  };
}
