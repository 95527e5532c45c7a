/**
 * Headless Chromium for the portal's tests and screenshot script: Debian's /usr/bin/chromium
 * (apt package chromium) driven by playwright-core, which never downloads a browser here.
 * The flags keep Chromium off the network (this machine's network is closed) and out of any
 * sandbox that needs privileges we do not have as root in a container.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Launches headless Chromium with a fresh profile directory (removed by `close`).
 * @param {{ width: number, height: number }} [viewport] CSS pixels; 1280×900 by default
 * @returns {Promise<{ context: import("playwright-core").BrowserContext, close: () => Promise<void> }>}
 */
export async function launchChromium(viewport = { width: 1280, height: 900 }) {
  const profile = await mkdtemp(join(tmpdir(), "tierwise-web-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: CHROMIUM_ARGS,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
