import "server-only";
import { connection } from "next/server";
import { z } from "zod";
import { PortalError } from "./errors";

/** Server-side settings the portal needs to reach the Tierwise API. */
export interface ApiConfig {
  /** Base URL of the Tierwise API, e.g. http://127.0.0.1:8080 (no trailing slash). */
  baseUrl: string;
}

const HttpUrl = z.url({ protocol: /^https?$/ });

/**
 * Reads the API settings from the environment at request time (not at build time).
 *
 * @throws PortalError config_missing when TIERWISE_API_URL is unset, or config_invalid when it
 *   is not an http(s) URL.
 */
export async function readApiConfig(): Promise<ApiConfig> {
  await connection();
  const raw = process.env.TIERWISE_API_URL?.trim();
  if (!raw) {
    throw new PortalError("config_missing", "TIERWISE_API_URL is not set in the portal server's environment.");
  }
  const url = HttpUrl.safeParse(raw);
  if (!url.success) {
    throw new PortalError("config_invalid", `TIERWISE_API_URL must be an http(s) URL such as http://127.0.0.1:8080 (got "${raw}").`);
  }
  return { baseUrl: url.data.replace(/\/+$/, "") };
}

/**
 * The API URL hosts reach, for the agent install command: TIERWISE_PUBLIC_API_URL (the same
 * variable the api's /install.sh honours, docs/install.md), else TIERWISE_API_URL.
 * @throws PortalError config_invalid when TIERWISE_PUBLIC_API_URL is not an http(s) URL; as readApiConfig otherwise.
 */
export async function readPublicApiUrl(): Promise<string> {
  const raw = process.env.TIERWISE_PUBLIC_API_URL?.trim();
  if (!raw) return (await readApiConfig()).baseUrl;
  const url = HttpUrl.safeParse(raw);
  if (!url.success) {
    throw new PortalError("config_invalid", `TIERWISE_PUBLIC_API_URL must be an http(s) URL such as https://tierwise.example.com (got "${raw}").`);
  }
  return url.data.replace(/\/+$/, "");
}
