/**
 * Names and search in headless Chromium against the real api and PostgreSQL (test profile): the
 * owner of an organization with a named volume on a named host searches from the navigation by
 * part of the name (any case) and by the start of the id and lands on the volume; the
 * recommendations list and the volume list name the volume and its host; a name with markup is
 * drawn as text. Needs built @tierwise/api and @tierwise/web.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import type { Page } from "playwright-core";
import { launchChromium } from "../scripts/chromium.mjs";
import { deleteUsers, freshEmail, logIn, signUpVerified } from "./support/accounts.js";
import { testEnv } from "./support/env.js";
import { dropTenant, seedVolume, VOLUME, type Seeded } from "./support/fixture.js";
import type { Server } from "./support/processes.js";
import { startApi, startWeb } from "./support/stack.js";

const env = testEnv();
const WEB = env.TIERWISE_WEB_URL;
const owner = { email: freshEmail("search-owner"), password: "a long enough passphrase", name: "Sam Search", organization: "Search Test Storage" };
/** A name an agent could send: markup that must show as text, never run. */
const HOSTILE_NAME = `<img src=x onerror="window.__searchXss=1">`;

/** Types `q` into the navigation's search box and submits it; waits for the results page. */
async function searchFromNav(page: Page, q: string): Promise<void> {
  const box = page.getByTestId("nav-search").getByRole("searchbox");
  await box.fill(q);
  await box.press("Enter");
  await page.waitForURL((url) => url.pathname === "/search" && url.searchParams.get("q") === q);
}

describe("names and search in headless Chromium", { timeout: 180_000 }, () => {
  let api: Server;
  let web: Server;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let seeded: Seeded;
  const hostileVolume = randomBytes(8).toString("hex");

  before(async () => {
    api = await startApi();
    const tenantId = await signUpVerified(env.TIERWISE_API_URL, env.TIERWISE_PG_OWNER_URL, owner);
    seeded = await seedVolume(env.TIERWISE_PG_OWNER_URL, tenantId);
    const db = new pg.Client({ connectionString: env.TIERWISE_PG_OWNER_URL });
    await db.connect();
    try {
      await db.query("INSERT INTO volumes (tenant_id, volume_id, host_id, display_name) VALUES ($1, $2, $3, $4)", [tenantId, hostileVolume, seeded.hostId, HOSTILE_NAME]);
    } finally {
      await db.end();
    }
    web = await startWeb({ TIERWISE_API_URL: env.TIERWISE_API_URL });
    browser = await launchChromium();
    page = await browser.context.newPage();
    await logIn(page, WEB, owner.email, owner.password, "/volumes");
  });

  after(async () => {
    await browser?.close();
    await web?.stop();
    await api?.stop();
    if (seeded) await dropTenant(env.TIERWISE_PG_OWNER_URL, seeded.tenantId);
    await deleteUsers(env.TIERWISE_PG_OWNER_URL, [owner.email]);
  });

  test("searching part of a volume's name, in another case, from the navigation lands on the volume", async () => {
    await searchFromNav(page, "SQL-DATA");
    const rows = page.getByTestId("search-result");
    assert.equal(await rows.count(), 1, "one match");
    const row = page.locator(`[data-testid="search-result"][data-kind="volume"][data-id="${seeded.volumeId}"]`);
    assert.deepEqual(
      [await row.locator("th").textContent(), ...(await row.locator("td").allTextContents())],
      [VOLUME.displayName, "Volume", seeded.volumeId, VOLUME.hostName],
      "name, kind, id and the host's name",
    );
    assert.equal(await page.getByTestId("page-search").getByRole("searchbox").inputValue(), "SQL-DATA", "the results page keeps the text");
    await row.getByRole("link", { name: VOLUME.displayName }).click();
    await page.waitForURL(`**/volumes/${seeded.volumeId}`);
    assert.equal(await page.locator("h1.volume-title").textContent(), VOLUME.displayName);
  });

  test("searching the start of the volume's id (pasted in capitals) lands on it too", async () => {
    const prefix = seeded.volumeId.slice(0, 8).toUpperCase();
    await searchFromNav(page, prefix);
    const row = page.locator(`[data-testid="search-result"][data-id="${seeded.volumeId}"]`);
    assert.equal(await row.count(), 1);
    await row.getByRole("link", { name: seeded.volumeId }).click();
    await page.waitForURL(`**/volumes/${seeded.volumeId}`);
    assert.equal(await page.locator("h1.volume-title").textContent(), VOLUME.displayName);
  });

  test("hosts are found by name; a search without a match says so", async () => {
    await searchFromNav(page, "esx-0");
    const host = page.locator(`[data-testid="search-result"][data-kind="host"][data-id="${seeded.hostId}"]`);
    assert.equal(await host.locator("th").textContent(), VOLUME.hostName);
    assert.equal(await host.getByRole("link", { name: seeded.hostId }).getAttribute("href"), `/hosts/${seeded.hostId}`);
    await searchFromNav(page, "100%_nothing");
    assert.match((await page.getByTestId("search-results-empty").textContent()) ?? "", /Nothing matches/);
  });

  test("a name with markup is shown as text and runs nothing", async () => {
    await searchFromNav(page, "<img");
    const row = page.locator(`[data-testid="search-result"][data-id="${hostileVolume}"]`);
    assert.equal(await row.locator("th").textContent(), HOSTILE_NAME);
    assert.equal(await page.locator("main img").count(), 0, "no element made of the name");
    assert.equal(await page.evaluate(() => (window as unknown as { __searchXss?: number }).__searchXss), undefined);
  });

  test("the recommendations list and the volume list name the volume and its host", async () => {
    await page.goto(`${WEB}/recommendations`);
    const recommendation = page.locator(`[data-testid="recommendation-row"][data-volume-id="${seeded.volumeId}"] th`);
    assert.equal(await recommendation.textContent(), VOLUME.displayName);
    assert.equal(await recommendation.locator("[title]").getAttribute("title"), `volume id ${seeded.volumeId}`, "the id stays at hand");
    await page.goto(`${WEB}/volumes`);
    const cells = await page.locator(`[data-testid="volume-row"][data-volume-id="${seeded.volumeId}"] td`).allTextContents();
    assert.deepEqual(cells.slice(0, 2), [VOLUME.displayName, VOLUME.hostName]);
    const hostile = await page.locator(`[data-testid="volume-row"][data-volume-id="${hostileVolume}"] td`).allTextContents();
    assert.deepEqual(hostile.slice(0, 2), [HOSTILE_NAME, VOLUME.hostName]);
  });
});
