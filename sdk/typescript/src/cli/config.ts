import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** Where the CLI finds its API key and api URL. */
export interface CliCredentials {
  apiKey: string;
  apiUrl: string;
}

/** The api of the local stack's demo profile (infra/local/env.sh). */
export const DEFAULT_API_URL = 'http://127.0.0.1:8080';

/** A problem the user can fix; printed without a stack trace, exit 2. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

/** The config file: $TIERWISE_CONFIG, else $XDG_CONFIG_HOME/tierwise/config.json, else ~/.config/tierwise/config.json. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.TIERWISE_CONFIG ?? join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'tierwise', 'config.json');
}

/**
 * Writes the config file with mode 0600 (its directory 0700): it holds a secret.
 * @returns the file's path.
 */
export function saveCredentials(credentials: CliCredentials, env: NodeJS.ProcessEnv = process.env): string {
  const path = configPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify({ api_key: credentials.apiKey, api_url: credentials.apiUrl }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return path;
}

/**
 * The credentials to use: $TIERWISE_API_KEY (with $TIERWISE_API_URL or the default URL) first,
 * else the config file, which must be readable by its owner only (like ssh's keys).
 * @throws CliError when neither is there, or the file is group/world-accessible or malformed.
 */
export function loadCredentials(env: NodeJS.ProcessEnv = process.env): CliCredentials {
  if (env.TIERWISE_API_KEY) {
    return { apiKey: env.TIERWISE_API_KEY, apiUrl: env.TIERWISE_API_URL ?? DEFAULT_API_URL };
  }
  const path = configPath(env);
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    throw new CliError(`no API key: set TIERWISE_API_KEY or run \`tierwise login --api-key <key>\` (which writes ${path})`);
  }
  if ((mode & 0o077) !== 0) {
    throw new CliError(`${path} is accessible by others (mode ${mode.toString(8)}); it holds an API key: chmod 600 ${path}`);
  }
  let parsed: { api_key?: unknown; api_url?: unknown };
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as typeof parsed;
  } catch (error) {
    throw new CliError(`${path} is not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed.api_key !== 'string' || parsed.api_key === '') {
    throw new CliError(`${path} has no api_key; run \`tierwise login --api-key <key>\``);
  }
  return { apiKey: parsed.api_key, apiUrl: env.TIERWISE_API_URL ?? (typeof parsed.api_url === 'string' ? parsed.api_url : DEFAULT_API_URL) };
}
