import "server-only";
import { readFile } from "node:fs/promises";
import { connection } from "next/server";
import { z } from "zod";
import { PortalError } from "./errors";

/** Server-side settings the portal needs to reach the Tierwise API. */
export interface ApiConfig {
  /** Base URL of the Tierwise API, e.g. http://127.0.0.1:8080 (no trailing slash). */
  baseUrl: string;
  /** Tenant-scoped API key sent as `Authorization: Bearer <key>`; never sent to the browser. */
  apiKey: string;
}

const HttpUrl = z.url({ protocol: /^https?$/ });

/**
 * The portal's API key: TIERWISE_PORTAL_API_KEY, else the first line of the file named by
 * TIERWISE_PORTAL_API_KEY_FILE (read on every request, so the local stack's demo can hand the
 * portal a new tenant's key without a restart). Undefined when neither gives a key.
 */
async function readApiKey(): Promise<string | undefined> {
  const fromEnv = process.env.TIERWISE_PORTAL_API_KEY?.trim();
  if (fromEnv) return fromEnv;
  const file = process.env.TIERWISE_PORTAL_API_KEY_FILE?.trim();
  if (!file) return undefined;
  try {
    return (await readFile(file, "utf8")).split("\n")[0].trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the API settings from the environment at request time (not at build time).
 *
 * @throws PortalError config_missing naming every unset variable, or config_invalid when
 *   TIERWISE_API_URL is not an http(s) URL.
 */
export async function readApiConfig(): Promise<ApiConfig> {
  await connection();
  const apiKey = await readApiKey();
  const missing = [
    ...(process.env.TIERWISE_API_URL?.trim() ? [] : ["TIERWISE_API_URL"]),
    ...(apiKey ? [] : ["TIERWISE_PORTAL_API_KEY (or a readable TIERWISE_PORTAL_API_KEY_FILE)"]),
  ];
  if (missing.length > 0) {
    throw new PortalError(
      "config_missing",
      `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set in the portal server's environment.`,
    );
  }
  const url = HttpUrl.safeParse(process.env.TIERWISE_API_URL!.trim());
  if (!url.success) {
    throw new PortalError(
      "config_invalid",
      `TIERWISE_API_URL must be an http(s) URL such as http://127.0.0.1:8080 (got "${process.env.TIERWISE_API_URL}").`,
    );
  }
  return { baseUrl: url.data.replace(/\/+$/, ""), apiKey: apiKey! };
}
