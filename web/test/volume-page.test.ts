/**
 * The portal against the real stack: PostgreSQL (test profile) seeded as the Flink jobs
 * would leave it, the real API (services/api/dist/main.js) and `next start`, driven by
 * headless Chromium, signed in as the owner of the seeded organization. Needs `./tierwise
 * test` (or the test profile's env and a migrated PostgreSQL) and built @tierwise/api and
 * @tierwise/web.
 */
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { launchChromium } from "../scripts/chromium.mjs";
import { deleteUsers, freshEmail, logIn, signUpVerified } from "./support/accounts.js";
import { testEnv } from "./support/env.js";
import { dropTenant, seedVolume, VOLUME, type Seeded } from "./support/fixture.js";
import type { Server } from "./support/processes.js";
import { startApi, startWeb, WEB_DIR } from "./support/stack.js";

const SCREENSHOT = join(WEB_DIR, "test-results", "volume.png");

const env = testEnv();
const owner = { email: freshEmail("volume-owner"), password: "correct horse battery staple", name: "Vera Volume", organization: "Volume Test Storage" };

/** The attribute once the chart's "finished" event has written it. */
async function drawnPoints(page: Page, testId: string): Promise<number> {
  const chart = page.getByTestId(testId);
  await page.waitForSelector(`[data-testid="${testId}"][data-points]`, { timeout: 15_000 });
  return Number(await chart.getAttribute("data-points"));
}

describe("volume pages in headless Chromium", { timeout: 180_000 }, () => {
  let seeded: Seeded;
  let api: Server;
  let web: Server;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;

  before(async () => {
    api = await startApi();
    const tenantId = await signUpVerified(env.TIERWISE_API_URL, env.TIERWISE_PG_OWNER_URL, owner);
    seeded = await seedVolume(env.TIERWISE_PG_OWNER_URL, tenantId);
    web = await startWeb({ TIERWISE_API_URL: env.TIERWISE_API_URL });
    browser = await launchChromium();
    page = await browser.context.newPage();
    await logIn(page, env.TIERWISE_WEB_URL, owner.email, owner.password);
  });

  after(async () => {
    await browser?.close();
    await web?.stop();
    await api?.stop();
    if (seeded) await dropTenant(env.TIERWISE_PG_OWNER_URL, seeded.tenantId);
    await deleteUsers(env.TIERWISE_PG_OWNER_URL, [owner.email]);
  });

  test("the volume list shows the fleet totals and the seeded volume", async () => {
    await page.goto(`${env.TIERWISE_WEB_URL}/`);
    assert.equal(new URL(page.url()).pathname, "/volumes", "/ redirects to /volumes");
    assert.equal(await page.getByTestId("fleet-volumes").locator(".tile__value").textContent(), "1");
    const row = page.locator(`[data-testid="volume-row"][data-volume-id="${seeded.volumeId}"]`);
    assert.equal(await row.count(), 1, "the seeded volume has one row");
    const cells = await row.locator("td").allTextContents();
    assert.deepEqual(cells, [VOLUME.displayName, VOLUME.hostName, "43.2M", "80.0%", "77.2%", "3.25 GiB", "4 GiB"]);
    const cookies = await browser.context.cookies(env.TIERWISE_WEB_URL);
    assert.deepEqual(cookies.filter((c) => c.name === "tw_session").map((c) => [c.httpOnly, c.sameSite]), [[true, "Lax"]], "the session cookie is httpOnly, SameSite=Lax");
    assert.ok(!(await page.content()).includes(cookies.find((c) => c.name === "tw_session")!.value), "the session token never appears in the page");

    await page.getByRole("link", { name: "Hit ratio" }).click();
    await page.waitForURL("**/volumes?sort=hit_ratio");
    assert.equal(await page.locator('th[aria-sort="descending"]').textContent(), "Hit ratio ↓");
    assert.equal(await row.count(), 1, "still listed when sorted by hit ratio");
  });

  test("the volume page draws the block sizes, the miss ratio curve and the tiles", async () => {
    await page.locator(`[data-testid="volume-row"] a`).first().click();
    await page.waitForURL(`**/volumes/${seeded.volumeId}`);

    assert.equal(await drawnPoints(page, "block-size-chart"), VOLUME.blockSizes.length, "one bar per inserted bin row");
    const blockChart = page.getByTestId("block-size-chart");
    assert.equal(await blockChart.getAttribute("data-bins"), "18", "all vscsiStats ioLength bins on the x axis");
    assert.equal(await blockChart.getAttribute("role"), "img");
    assert.match((await blockChart.getAttribute("aria-label")) ?? "", /Block-size distribution by I\/O count/);
    const barPaths = await blockChart.locator("svg path").count();
    assert.ok(barPaths >= VOLUME.blockSizes.length, `at least one SVG path per non-empty bar (got ${barPaths})`);
    const axisText = await blockChart.locator("svg text").allTextContents();
    for (const label of ["≤512 B", "<4 KiB", "4 KiB", "8 KiB", ">512 KiB"]) assert.ok(axisText.includes(label), `x axis shows ${label}`);

    await page.getByTestId("block-size-bytes").click();
    await page.waitForSelector('[data-testid="block-size-chart"][data-metric="bytes"][data-points]');
    assert.equal(await blockChart.getAttribute("data-points"), String(VOLUME.blockSizes.length), "redrawn by bytes");
    assert.ok((await blockChart.locator("svg text").allTextContents()).includes("Share of bytes"), "y axis names bytes");

    assert.equal(await drawnPoints(page, "mrc-chart"), VOLUME.mrc.length, "every MRC point drawn");
    const mrc = page.getByTestId("mrc-chart");
    assert.equal(await mrc.getAttribute("data-recommended-bytes"), String(VOLUME.tierBytes));
    assert.equal(await mrc.getAttribute("data-current-bytes"), String(VOLUME.capacityBytes));
    assert.equal(await mrc.getAttribute("data-curves"), "LRU,S3-FIFO", "every eviction policy's curve drawn together");
    const mrcText = await mrc.locator("svg text").allTextContents();
    assert.ok(mrcText.includes("Recommended 4 GiB"), `recommended mark line label (got ${mrcText.join(" | ")})`);
    assert.ok(mrcText.includes("Current tier 2 GiB"), "current tier mark line label");
    assert.ok((await mrc.locator("svg path").count()) >= 3, "curve and two mark lines are paths");

    assert.equal(await page.getByTestId("stat-wss").locator(".tile__value").textContent(), "3.25 GiB");
    assert.equal(await page.getByTestId("stat-wss-read").locator(".tile__value").textContent(), "2.75 GiB");
    assert.equal(await page.getByTestId("stat-wss-write").locator(".tile__value").textContent(), "1 GiB");
    assert.equal(await page.getByTestId("stat-hit-ratio").locator(".tile__value").textContent(), "77.2%");
    assert.match((await page.getByTestId("stat-hit-ratio").textContent()) ?? "", /measured at the 2 GiB tier/);
    assert.equal(await page.getByTestId("recommendation-size").textContent(), "4 GiB");
    assert.equal(await page.getByTestId("policy-desired").textContent(), "write-back (WB+1), 4 GiB NVMe flash, lru");
    const applied = page.getByTestId("policy-applied");
    assert.match((await applied.textContent()) ?? "", /^version 2 applied with problems · /);
    assert.equal(await applied.getAttribute("data-in-sync"), "false");
    assert.equal(await page.getByTestId("policy-error").textContent(), "The agent could not apply: media nvme differs from the volume's RAM tier (set in the volumes file)");

    await page.getByTestId("block-size-ops").click();
    await page.waitForSelector('[data-testid="block-size-chart"][data-metric="ops"][data-points]');
    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  test("the charts follow a live switch of the colour scheme (no reload)", async () => {
    /** The fill of every text of a chart's SVG (axis labels, legend, mark labels) once it is drawn in `scheme`. */
    const textFills = async (testId: string, scheme: string) => {
      await page.waitForSelector(`[data-testid="${testId}"][data-scheme="${scheme}"][data-points]`, { timeout: 15_000 });
      return page.getByTestId(testId).locator("svg text").evaluateAll((texts) => texts.map((t) => getComputedStyle(t).fill));
    };
    /** Relative luminance of an "rgb(r, g, b)" colour (WCAG 2.x), 0 black .. 1 white. */
    const luminance = (rgb: string) => {
      const [r, g, b] = rgb.match(/[\d.]+/g)!.slice(0, 3).map((c) => {
        const v = Number(c) / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const mean = (fills: string[]) => fills.reduce((sum, f) => sum + luminance(f), 0) / fills.length;
    const toggle = page.getByTestId("theme-toggle");
    const navigations: string[] = [];
    page.on("framenavigated", (frame) => frame === page.mainFrame() && navigations.push(frame.url()));

    assert.equal(await toggle.getAttribute("data-theme-choice"), "system");
    const light = { blocks: await textFills("block-size-chart", "light"), mrc: await textFills("mrc-chart", "light") };
    assert.ok(light.blocks.length > 10 && mean(light.blocks) < 0.3, `dark text on the light page (${light.blocks.slice(0, 3).join(", ")})`);

    await toggle.click(); // system -> light: nothing changes
    await toggle.click(); // light -> dark
    assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
    const dark = { blocks: await textFills("block-size-chart", "dark"), mrc: await textFills("mrc-chart", "dark") };
    assert.ok(mean(dark.blocks) > 0.3, `light axis labels and legend on the dark page (${dark.blocks.slice(0, 3).join(", ")})`);
    assert.ok(mean(dark.mrc) > mean(light.mrc), "the miss ratio curve's text lightens too");
    assert.equal(await page.getByTestId("block-size-chart").getAttribute("data-points"), String(VOLUME.blockSizes.length), "the same bars, redrawn");

    await toggle.click(); // dark -> system (light here)
    assert.deepEqual(await textFills("block-size-chart", "light"), light.blocks, "back to the light colours");
    assert.deepEqual(navigations, [], "the switch reloads nothing");
  });

  test("the volume page fits a phone-width screen", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await drawnPoints(page, "mrc-chart");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling at 390 px (overflow ${overflow} px)`);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test("an unknown volume id shows the not-found page with status 404", async () => {
    const response = await page.goto(`${env.TIERWISE_WEB_URL}/volumes/0000000000000000`);
    assert.equal(response?.status(), 404);
    assert.equal(await page.getByTestId("not-found").count(), 1);
  });

  test("without TIERWISE_API_URL the portal names the missing variable", async () => {
    await web.stop();
    web = await startWeb({});
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes`);
    const error = page.getByTestId("error-view");
    assert.equal(await error.getAttribute("data-error-code"), "config_missing");
    assert.match((await error.textContent()) ?? "", /TIERWISE_API_URL is not set/);
  });
});
