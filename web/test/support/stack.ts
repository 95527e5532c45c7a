import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { testEnv } from "./env.js";
import { startServer, type Server } from "./processes.js";

export const WEB_DIR = resolve(__dirname, "../../..");
export const REPO = resolve(WEB_DIR, "..");
const NEXT_BIN = createRequire(join(WEB_DIR, "package.json")).resolve("next/dist/bin/next");

/** The real api (services/api/dist/main.js) on the test profile's port, with the test environment. */
export function startApi(): Promise<Server> {
  const env = testEnv();
  return startServer({
    name: "api",
    args: [join(REPO, "services/api/dist/main.js")],
    cwd: REPO,
    env: process.env,
    port: Number(env.TIERWISE_API_PORT),
    readyUrl: `${env.TIERWISE_API_URL}/healthz`,
  });
}

/**
 * `next start` (the built portal) on the test profile's port; `portalEnv` replaces the portal's
 * own settings (TIERWISE_API_URL), so a test can leave one out.
 */
export function startWeb(portalEnv: Record<string, string>): Promise<Server> {
  const env = testEnv();
  const { TIERWISE_API_URL: _url, ...rest } = process.env;
  return startServer({
    name: "web",
    args: [NEXT_BIN, "start", "-H", "127.0.0.1", "-p", env.TIERWISE_WEB_PORT],
    cwd: WEB_DIR,
    env: { ...rest, ...portalEnv, NEXT_TELEMETRY_DISABLED: "1" },
    port: Number(env.TIERWISE_WEB_PORT),
    readyUrl: `${env.TIERWISE_WEB_URL}/login`,
  });
}
