/**
 * Screenshots of every portal page with the demo data, for docs/portal.md.
 *
 * Expects the demo stack running (`./tierwise demo`) and TIERWISE_WEB_URL set (the npm
 * script `screenshots` sources infra/local/env.sh, demo profile unless TIERWISE_PROFILE says
 * otherwise). Signs in as the demo tenant's user (its login saved by the demo in
 * $TIERWISE_STATE_DIR/demo-tenant.json) and visits every page listed in pages.mjs, driving
 * Debian's /usr/bin/chromium through playwright-core; writes docs/screenshots/<name>.png
 * (1280 px wide full pages unless the entry says otherwise), palette-quantised with sharp
 * (libimagequant) to keep each file small in the repository. Page names as arguments
 * (`npm run -w @tierwise/web screenshots -- agents settings-members`) shoot only those.
 * Exits non-zero, naming the page, when the portal is unreachable, a page renders its error
 * or not-found view, or a chart does not draw within the timeout.
 */
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { launchChromium } from "./chromium.mjs";
import { PAGES } from "./pages.mjs";

/** docs/screenshots at the repository root. */
const OUT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../docs/screenshots");
const WIDE = { width: 1280, height: 900 };
/** Milliseconds a page or a chart may take (the first request also warms up next start). */
const TIMEOUT_MS = 30_000;

/**
 * Waits until every ECharts container (`.chart`) of the page carries data-points, which
 * EChart.tsx sets on ECharts' "finished" event, and the web fonts are loaded.
 * @param {import("playwright-core").Page} page
 * @param {string} name the screenshot name, for the error message
 * @throws Error naming the page when it shows the error or not-found view, or a chart never draws.
 */
async function waitUntilDrawn(page, name) {
  const failure = page.locator('[data-testid="error-view"], [data-testid="not-found"]');
  if (await failure.count()) {
    throw new Error(`${name}: ${page.url()} shows an error page: ${(await failure.first().textContent())?.trim()}`);
  }
  try {
    await page.waitForFunction(() => [...document.querySelectorAll(".chart")].every((c) => c.hasAttribute("data-points")), null, {
      timeout: TIMEOUT_MS,
    });
  } catch {
    throw new Error(`${name}: a chart on ${page.url()} did not draw within ${TIMEOUT_MS / 1000} s`);
  }
  await page.evaluate(() => document.fonts.ready);
}

/**
 * Writes docs/screenshots/<name>.png of the whole page as a 256-colour palette PNG (the
 * portal's flat colours survive quantisation; a full-colour list page is ~400 KB, this ~120 KB).
 * @param {import("playwright-core").Page} page
 * @param {string} name
 */
async function shoot(page, name) {
  await waitUntilDrawn(page, name);
  const path = join(OUT_DIR, `${name}.png`);
  const png = await page.screenshot({ fullPage: true, animations: "disabled" });
  const { width, height, size } = await sharp(png).png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 }).toFile(path);
  console.log(`${name}: ${page.url()} -> ${path} (${width}x${height} px, ${Math.round(size / 1024)} KiB)`);
}

/**
 * Signs in through the login form with the demo tenant's login (`./tierwise demo` saves it in
 * $TIERWISE_STATE_DIR/demo-tenant.json).
 * @param {import("playwright-core").Page} page
 * @param {string} baseUrl
 * @throws Error when the demo login is missing or refused.
 */
async function logIn(page, baseUrl) {
  const file = join(process.env.TIERWISE_STATE_DIR ?? "", "demo-tenant.json");
  const demo = JSON.parse(await readFile(file, "utf8").catch(() => "{}"));
  if (!demo.login_email || !demo.login_password) throw new Error(`${file} holds no demo login; run ./tierwise demo first`);
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel("E-mail address").fill(demo.login_email);
  await page.getByLabel("Password").fill(demo.login_password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname !== "/login", { timeout: TIMEOUT_MS }).catch(async () => {
    throw new Error(`signing in as ${demo.login_email} failed: ${await page.locator('[role="alert"]').first().textContent().catch(() => "no message")}`);
  });
}

/**
 * Shoots the entries of PAGES (pages.mjs) named in `names` (all when empty): the signed-out
 * ones first, then signs in.
 * @param {import("playwright-core").Page} page
 * @param {string} baseUrl TIERWISE_WEB_URL, e.g. http://127.0.0.1:3000
 * @param {string[]} names page names from the command line
 * @throws Error naming an unknown page name.
 */
async function shootAll(page, baseUrl, names) {
  await page.goto(`${baseUrl}/login`).catch((e) => {
    throw new Error(`the portal at ${baseUrl} does not answer (${e.message.split("\n")[0]}); run ./tierwise demo first`);
  });
  const unknown = names.filter((n) => !PAGES.some((p) => p.name === n));
  if (unknown.length) throw new Error(`no page named ${unknown.join(", ")} in scripts/pages.mjs (known: ${PAGES.map((p) => p.name).join(", ")})`);
  const chosen = names.length ? PAGES.filter((p) => names.includes(p.name)) : PAGES;
  const ordered = [...chosen.filter((p) => p.signedIn === false), ...chosen.filter((p) => p.signedIn !== false)];
  let signedIn = false;
  for (const entry of ordered) {
    if (entry.signedIn !== false && !signedIn) {
      await logIn(page, baseUrl);
      signedIn = true;
    }
    await page.setViewportSize(entry.viewport ?? WIDE);
    await page.emulateMedia({ colorScheme: "light" });
    const path = typeof entry.path === "function" ? await entry.path(page, baseUrl) : entry.path;
    await page.goto(`${baseUrl}${path}`);
    if (entry.prepare) await entry.prepare(page);
    await shoot(page, entry.name);
  }
}

async function main() {
  const baseUrl = process.env.TIERWISE_WEB_URL;
  if (!baseUrl) throw new Error("TIERWISE_WEB_URL is not set; run `npm run -w @tierwise/web screenshots` (it sources infra/local/env.sh)");
  await mkdir(OUT_DIR, { recursive: true });
  const { context, close } = await launchChromium(WIDE);
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT_MS);
    await shootAll(page, baseUrl.replace(/\/+$/, ""), process.argv.slice(2));
  } finally {
    await close();
  }
}

main().catch((error) => {
  console.error(`screenshots: error: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
});
