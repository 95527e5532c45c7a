/**
 * The fleet benchmarks page against the real stack (test profile PostgreSQL, the built api and
 * portal, headless Chromium), signed in as the owner of a fresh organization with volumes in two
 * published cohorts and one too small to publish (benchmarks-seed.ts): published cohorts are
 * grouped by workload class and collapsed but the first, each figure a percentile band with a
 * "you are here" marker at the api's own value; the unpublished cohort is listed once with the
 * reason, not as a table of dashes. Saves test-results/benchmarks.png.
 */
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { launchChromium } from "../scripts/chromium.mjs";
import { formatPercent } from "../lib/format.js";
import { dropBenchmarks, seedBenchmarks, type BenchmarkSeed } from "./benchmarks-seed.js";
import { deleteUsers, freshEmail, logIn, signUpVerified } from "./support/accounts.js";
import { testEnv } from "./support/env.js";
import { dropTenant } from "./support/fixture.js";
import type { Server } from "./support/processes.js";
import { startApi, startWeb, WEB_DIR } from "./support/stack.js";

const env = testEnv();
const owner = { email: freshEmail("bench-owner"), password: "correct horse battery staple", name: "Ben Chmark", organization: "Benchmark Test Storage" };
const SCREENSHOT = join(WEB_DIR, "test-results", "benchmarks.png");

interface Standing {
  own: number | null;
  cohort_p25: number | null;
  cohort_p75: number | null;
}
interface BenchmarksBody {
  min_tenants: number;
  cohorts: { media: string; workload_class: string; published: boolean; read_share: Standing }[];
}

/** Waits for a chart's "finished" drawing and returns its data-* attributes. */
async function drawn(page: Page, testId: string, within = page.locator("body")): Promise<Record<string, string>> {
  const chart = within.locator(`[data-testid="${testId}"][data-points]`);
  await chart.waitFor({ timeout: 30_000 });
  return chart.evaluate((el) => ({ ...(el as HTMLElement).dataset }) as Record<string, string>);
}

describe("the fleet benchmarks page in headless Chromium", { timeout: 300_000 }, () => {
  let api: Server;
  let web: Server;
  let tenantId: string;
  let seed: BenchmarkSeed;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let body: BenchmarksBody;

  before(async () => {
    api = await startApi();
    tenantId = await signUpVerified(env.TIERWISE_API_URL, env.TIERWISE_PG_OWNER_URL, owner);
    seed = await seedBenchmarks(tenantId);
    web = await startWeb({ TIERWISE_API_URL: env.TIERWISE_API_URL });
    browser = await launchChromium();
    page = await browser.context.newPage();
    await logIn(page, env.TIERWISE_WEB_URL, owner.email, owner.password);
    const session = (await browser.context.cookies(env.TIERWISE_WEB_URL)).find((c) => c.name === "tw_session")!.value;
    const res = await fetch(`${env.TIERWISE_API_URL}/v1/benchmarks`, { headers: { cookie: `tw_session=${session}` } });
    assert.equal(res.status, 200);
    body = (await res.json()) as BenchmarksBody;
  });

  after(async () => {
    await browser?.close();
    await web?.stop();
    await api?.stop();
    if (seed) await dropBenchmarks(seed, tenantId);
    if (tenantId) await dropTenant(env.TIERWISE_PG_OWNER_URL, tenantId);
    await deleteUsers(env.TIERWISE_PG_OWNER_URL, [owner.email]);
  });

  test("published cohorts are grouped by workload class, the first open, each figure a band with you marked at your value", async () => {
    assert.deepEqual(
      body.cohorts.map((c) => [c.workload_class, c.media, c.published]).sort(),
      [["mixed", "ram", true], ["read-heavy", "nvme", true], ["write-heavy", "none", false]],
      "the api publishes the two cohorts of five actors only",
    );
    await page.goto(`${env.TIERWISE_WEB_URL}/benchmarks`);
    await page.waitForFunction(() => Array.from(document.querySelectorAll(".chart")).every((c) => c.hasAttribute("data-points")));
    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    assert.deepEqual(await page.getByTestId("workload-class").locator("h2").allTextContents(), ["Read-heavy", "Mixed"]);
    const cohorts = page.getByTestId("cohort");
    assert.equal(await cohorts.count(), 2, "only the published cohorts get a panel");
    assert.deepEqual(await cohorts.evaluateAll((els) => els.map((e) => [e.getAttribute("data-workload-class"), (e as HTMLDetailsElement).open])), [
      ["read-heavy", true],
      ["mixed", false],
    ]);

    const readHeavy = cohorts.first();
    const own = body.cohorts.find((c) => c.workload_class === "read-heavy")!.read_share;
    const band = await drawn(page, "band-read-share", readHeavy);
    assert.deepEqual([band.rows, band.you], ["1", "1"], "one band, one you-are-here marker");
    const chart = readHeavy.getByTestId("band-read-share");
    assert.ok((await chart.locator("svg text", { hasText: "you are here" }).count()) === 1, "the marker is labelled");
    // The data table holds the same numbers: the cohort's p25 and p75 (noisy) and your own value.
    const table = chart.locator("xpath=..").locator("details");
    await table.locator("summary").click();
    const cells = await table.locator("tbody tr td").allTextContents();
    assert.deepEqual([cells[1], cells[3], cells[4]], [formatPercent(own.cohort_p25), formatPercent(own.cohort_p75), formatPercent(own.own)]);
    assert.equal((await drawn(page, "band-wss", readHeavy)).you, "1");
    const latency = await drawn(page, "band-latency", readHeavy);
    assert.deepEqual([latency.rows, latency.you], ["1", "2"], "read 4 KiB published: your p50 and p99 marked");
    assert.match((await readHeavy.getByTestId("figures-unpublished").textContent())!, /fewer than 5 owners have them: write 64 KiB latency\.$/);

    // The collapsed cohort draws when opened.
    const mixed = cohorts.nth(1);
    await mixed.locator(":scope > summary").click();
    assert.equal((await drawn(page, "band-read-share", mixed)).you, "1");
  });

  test("the unpublished cohort is listed once with why, not as a table of dashes", async () => {
    await page.goto(`${env.TIERWISE_WEB_URL}/benchmarks`);
    const unpublished = page.getByTestId("unpublished");
    assert.equal(await page.getByText(`fewer than ${body.min_tenants} independent owners`).count(), 1, "the reason is stated once");
    assert.deepEqual(await unpublished.getByTestId("unpublished-cohort").allTextContents(), [
      `Write-heavy, no recommendation: your 1 volume, read share ${formatPercent(0.1)}, working set / tier 0.3×`,
    ]);
    assert.equal(await page.locator('[data-testid="cohort"][data-workload-class="write-heavy"]').count(), 0);
    assert.equal(await page.locator("td", { hasText: /^—$/ }).count(), 0, "no cell of dashes");
  });
});
