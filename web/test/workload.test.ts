/**
 * A volume's workload view against the real stack (test profile PostgreSQL, the built api and
 * portal, headless Chromium), signed in as the owner of a fresh organization whose rollups carry
 * the vscsiStats histograms as the Flink rollup job writes them (workload-seed.ts): the randomness
 * tiles and the seek distance, outstanding I/O and interarrival histograms show the api's numbers,
 * the direction toggle redraws them, an empty family says so once, a volume without histograms
 * says so once, and a hostile volume name stays text. Saves test-results/workload.png.
 */
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { launchChromium } from "../scripts/chromium.mjs";
import { formatExact, formatPercent } from "../lib/format.js";
import { dropAnalytics, HOSTILE_NAME, seedAnalytics, type AnalyticsSeed } from "./analytics-seed.js";
import { deleteUsers, freshEmail, logIn, signUpVerified } from "./support/accounts.js";
import { testEnv } from "./support/env.js";
import type { Server } from "./support/processes.js";
import { startApi, startWeb, WEB_DIR } from "./support/stack.js";
import { seedWorkload } from "./workload-seed.js";

const env = testEnv();
const SCREENSHOT = join(WEB_DIR, "test-results", "workload.png");
const owner = { email: freshEmail("workload-owner"), password: "correct horse battery staple", name: "Vic Scsi", organization: "Workload Test Storage" };

interface Histogram {
  bounds: number[];
  all: number[] | null;
  read: number[] | null;
  write: number[] | null;
}
interface WorkloadBody {
  windows: number;
  seek_distance: Histogram;
  seek_distance_closest: Histogram;
  outstanding: Histogram;
  interarrival_us: Histogram;
  randomness: { commands: number; sequential_share: number; within_128_sectors_share: number } | null;
}

/** Waits for a chart's "finished" drawing and returns its data-* attributes. */
async function drawn(page: Page, testId: string): Promise<Record<string, string>> {
  await page.waitForSelector(`[data-testid="${testId}"][data-points]`, { timeout: 30_000 });
  return page.getByTestId(testId).evaluate((el) => ({ ...(el as HTMLElement).dataset }) as Record<string, string>);
}

const sum = (counts: number[] | null) => (counts ?? []).reduce((a, b) => a + b, 0);

describe("the workload view in headless Chromium", { timeout: 300_000 }, () => {
  let api: Server;
  let web: Server;
  let seed: AnalyticsSeed;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let session: string;
  let period: URLSearchParams;

  /** GET /v1/volumes/{id}/workload over the test's period as the signed-in owner. */
  const apiWorkload = async (volumeId: string): Promise<WorkloadBody> => {
    const res = await fetch(`${env.TIERWISE_API_URL}/v1/volumes/${volumeId}/workload?${period}`, { headers: { cookie: `tw_session=${session}` } });
    assert.equal(res.status, 200);
    return (await res.json()) as WorkloadBody;
  };
  const hostile = () => seed.volumes.find((v) => v.name === HOSTILE_NAME)!;

  before(async () => {
    api = await startApi();
    const tenantId = await signUpVerified(env.TIERWISE_API_URL, env.TIERWISE_PG_OWNER_URL, owner);
    seed = await seedAnalytics(env.TIERWISE_PG_OWNER_URL, tenantId, 3);
    await seedWorkload(env.TIERWISE_PG_OWNER_URL, tenantId, seed.busiest);
    // A replayed trace without completion times: no outstanding I/Os.
    await seedWorkload(env.TIERWISE_PG_OWNER_URL, tenantId, hostile().volumeId, { outstanding: false });
    period = new URLSearchParams({ from: new Date(seed.to.getTime() - 6 * 3600_000).toISOString(), to: seed.to.toISOString() });
    web = await startWeb({ TIERWISE_API_URL: env.TIERWISE_API_URL });
    browser = await launchChromium();
    page = await browser.context.newPage();
    await logIn(page, env.TIERWISE_WEB_URL, owner.email, owner.password);
    session = (await browser.context.cookies(env.TIERWISE_WEB_URL)).find((c) => c.name === "tw_session")!.value;
  });

  after(async () => {
    await browser?.close();
    await web?.stop();
    await api?.stop();
    if (seed) await dropAnalytics(env.TIERWISE_PG_OWNER_URL, seed.tenantId);
    await deleteUsers(env.TIERWISE_PG_OWNER_URL, [owner.email]);
  });

  test("the randomness tiles and the seek distance, outstanding I/O and interarrival histograms show the api's numbers", async () => {
    const body = await apiWorkload(seed.busiest);
    assert.ok(body.windows > 0 && body.randomness, "the api merged the seeded histograms");
    // workload-seed.ts puts 60 % of all commands at distance 1 and 70 % within 128 sectors.
    assert.ok(Math.abs(body.randomness.sequential_share - 0.6) < 0.01 && Math.abs(body.randomness.within_128_sectors_share - 0.7) < 0.01);
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${seed.busiest}/workload?${period}`);
    assert.equal(await page.getByTestId("stat-sequential").locator(".tile__value").textContent(), formatPercent(body.randomness.sequential_share));
    assert.equal(await page.getByTestId("stat-within-128").locator(".tile__value").textContent(), formatPercent(body.randomness.within_128_sectors_share));

    const seek = await drawn(page, "histogram-seek_distance");
    assert.equal(seek.buckets, "34", "vscsiStats' 33 seek-distance bounds and the open bucket");
    assert.equal(seek.series, `From the previous command:${sum(body.seek_distance.all)},From the closest of the previous 16:${sum(body.seek_distance_closest.all)}`);
    const outstanding = await drawn(page, "histogram-outstanding");
    assert.equal(outstanding.buckets, "13");
    assert.equal(outstanding.series, `Reads and writes:${sum(body.outstanding.all)}`);
    const interarrival = await drawn(page, "histogram-interarrival_us");
    assert.equal(interarrival.buckets, "11");
    assert.equal(interarrival.series, `Reads and writes:${sum(body.interarrival_us.all)}`);
    assert.equal(await page.getByTestId("family-empty").count(), 0);

    // The data table (the accessible fallback) has vscsiStats' buckets and the api's counts.
    const table = page.getByTestId("histogram-seek_distance").locator("xpath=..").locator("details");
    await table.locator("summary").click();
    const labels = await table.locator("tbody tr td:first-child").allTextContents();
    assert.equal(labels[0], "≤ −500000");
    assert.equal(labels[17], "1");
    assert.equal(labels.at(-1), "> 500000");
    const sequential = await table.locator("tbody tr").nth(17).locator("td").allTextContents();
    assert.equal(sequential[1], "(0, 1]");
    assert.equal(sequential[2], `${formatExact(body.seek_distance.all![17])} (${formatPercent(body.seek_distance.all![17] / sum(body.seek_distance.all))})`);
    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  test("the direction toggle redraws every family for writes", async () => {
    const body = await apiWorkload(seed.busiest);
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${seed.busiest}/workload?${period}`);
    await page.getByRole("navigation", { name: "Direction" }).getByRole("link", { name: "Writes", exact: true }).click();
    await page.waitForURL(/direction=write/);
    assert.equal((await drawn(page, "histogram-seek_distance")).series, `From the previous write:${sum(body.seek_distance.write)}`);
    assert.equal((await drawn(page, "histogram-outstanding")).series, `Writes:${sum(body.outstanding.write)}`);
    assert.equal((await drawn(page, "histogram-interarrival_us")).series, `Writes:${sum(body.interarrival_us.write)}`);
    await page.getByText("The closest of the previous 16 is kept over reads and writes together").waitFor();
  });

  test("a family the volume did not report says so once; a hostile name stays text", async () => {
    const volume = hostile();
    assert.equal((await apiWorkload(volume.volumeId)).outstanding.all, null, "seeded without outstanding I/Os");
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${volume.volumeId}/workload?${period}`);
    await drawn(page, "histogram-seek_distance");
    await drawn(page, "histogram-interarrival_us");
    const empty = page.getByTestId("family-empty");
    assert.equal(await empty.count(), 1);
    assert.match((await empty.textContent())!, /^No outstanding I\/Os reported for reads and writes in this range: .*completion times\)\.$/);
    assert.equal(await page.getByTestId("histogram-outstanding").count(), 0);
    const injected = await page.evaluate(() => ({ element: document.querySelector('img[src="x"]') !== null, ran: "__xss" in window }));
    assert.deepEqual(injected, { element: false, ran: false });
  });

  test("a volume without histograms in the range says so once, not per family", async () => {
    const quiet = seed.volumes.find((v) => v.volumeId !== seed.busiest && v.name !== HOSTILE_NAME)!;
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${quiet.volumeId}/workload?${period}`);
    await drawn(page, "block-size-share-chart");
    assert.equal(await page.getByTestId("workload-empty").count(), 1);
    assert.equal(await page.getByTestId("family-empty").count(), 0);
    assert.equal(await page.locator('[data-testid^="histogram-"]').count(), 0);
    assert.equal(await page.getByTestId("stat-sequential").count(), 0);
  });
});
