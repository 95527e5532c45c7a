/**
 * A volume's workload view against the real stack (test profile PostgreSQL, the built api and
 * portal, headless Chromium), signed in as the owner of a fresh organization whose rollups carry
 * the vscsiStats histograms as the Flink rollup job writes them (workload-seed.ts): the randomness
 * tiles and the seek distance, outstanding I/O and interarrival histograms show the api's numbers,
 * the direction toggle redraws them, an empty family says so once, a volume without histograms
 * says so once, and a hostile volume name stays text; the alignment panel advises realigning a
 * volume whose I/Os start 3584 bytes into their block (a partition at sector 63); a volume imported
 * from vscsiStats output is badged in the list and its header, says once that it has no tier and
 * draws its imported latency; "Download fio job" saves the api's job file, paced or not. Saves
 * test-results/workload.png and, of the imported volume, workload-imported.png.
 */
import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
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
import { EXTRA_BLOCK_SHARE, MISALIGNED_BYTES_SHARE, seedImportedVolume, seedWorkload } from "./workload-seed.js";

const env = testEnv();
const SCREENSHOT = join(WEB_DIR, "test-results", "workload.png");
const IMPORTED_SCREENSHOT = join(WEB_DIR, "test-results", "workload-imported.png");
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
  latency_us: Histogram;
  randomness: { commands: number; sequential_share: number; within_128_sectors_share: number } | null;
  alignment: {
    start_sector: Histogram;
    commands: number;
    misaligned_share: number;
    misaligned_bytes_share: number | null;
    extra_block_share: number | null;
    dominant_offset_bytes: number | null;
    realignment_advised: boolean;
  } | null;
}

/** The name `tierwise-agent import-vscsistats` gives a virtual disk (docs/workload.md). */
const IMPORTED_NAME = "vm2099979-scsi0:0";

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
  let imported: string;

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
    await seedWorkload(env.TIERWISE_PG_OWNER_URL, tenantId, seed.busiest, { alignment: true });
    // A replayed trace without completion times: no outstanding I/Os.
    await seedWorkload(env.TIERWISE_PG_OWNER_URL, tenantId, hostile().volumeId, { outstanding: false });
    const quiet = seed.volumes.at(-1)!;
    imported = await seedImportedVolume(env.TIERWISE_PG_OWNER_URL, tenantId, quiet, IMPORTED_NAME);
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
    assert.equal(await page.getByTestId("family-latency_us").count(), 0, "only imported volumes have vscsiStats' latency");

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
    assert.equal(await page.getByTestId("alignment-empty").textContent(), "No alignment counts reported in this range.");
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

  test("the alignment panel shows the misaligned shares, the start offsets and the advice to realign by 3584 bytes", async () => {
    const { alignment } = await apiWorkload(seed.busiest);
    assert.ok(alignment, "the api read the seeded alignment counts");
    assert.equal(alignment.dominant_offset_bytes, 3584);
    assert.equal(alignment.realignment_advised, true);
    assert.ok(Math.abs(alignment.misaligned_bytes_share! - MISALIGNED_BYTES_SHARE) < 0.01 && Math.abs(alignment.extra_block_share! - EXTRA_BLOCK_SHARE) < 0.01);
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${seed.busiest}/workload?${period}`);
    const tile = (id: string) => page.getByTestId(id).locator(".tile__value").textContent();
    assert.equal(await tile("stat-misaligned"), formatPercent(alignment.misaligned_share));
    assert.equal(await tile("stat-misaligned-bytes"), formatPercent(alignment.misaligned_bytes_share));
    assert.equal(await tile("stat-extra-blocks"), formatPercent(alignment.extra_block_share));
    assert.equal(
      await page.getByTestId("alignment-advice").textContent(),
      `Realigning the partition by 3584 bytes would remove ${formatPercent(alignment.extra_block_share)} extra tier work: 3584 bytes is a partition starting at sector 63, as older installers created it.`,
    );
    const chart = await drawn(page, "histogram-alignment");
    assert.equal(chart.buckets, "8", "sectors 0..7 of the 4 KiB block");
    assert.equal(chart.series, `Reads and writes:${alignment.commands}`);
    const table = page.getByTestId("histogram-alignment").locator("xpath=..").locator("details");
    await table.locator("summary").click();
    const rows = await table.locator("tbody tr td:first-child").allTextContents();
    assert.deepEqual(rows, ["0", "512", "1024", "1536", "2048", "2560", "3072", "3584"]);
    const last = await table.locator("tbody tr").nth(7).locator("td").allTextContents();
    const at3584 = alignment.start_sector.all![7];
    assert.deepEqual(last, ["3584", "sector 7: 3584 bytes in", `${formatExact(at3584)} (${formatPercent(at3584 / alignment.commands)})`]);

    // At phone width, laid out afresh (a chart drawn at 1280 px resizes only after the resize event).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await drawn(page, "histogram-alignment");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.ok(overflow <= 0, `no horizontal scrolling at 390 px with the header's download and the alignment panel (overflow ${overflow} px)`);
  });

  test("an imported volume is badged in the list and its header, says once it has no tier and draws its imported latency", async () => {
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes`);
    const badges = page.getByTestId("volume-table").getByTestId("imported-badge");
    assert.equal(await badges.count(), 1, "only the imported volume");
    assert.equal(await page.locator(`[data-volume-id="${imported}"]`).getByTestId("imported-badge").textContent(), "Imported from vscsiStats");

    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${imported}?${period}`);
    assert.equal(await page.locator("h1.volume-title").textContent(), IMPORTED_NAME);
    assert.equal(await page.getByTestId("imported-badge").count(), 1);
    assert.equal(await page.getByTestId("no-tier").count(), 1);
    for (const absent of ["stat-hit-ratio", "stat-wss", "recommendation-empty"]) assert.equal(await page.getByTestId(absent).count(), 0, absent);
    assert.equal(await page.getByRole("heading", { name: "Miss ratio curve" }).count(), 0);

    const body = await apiWorkload(imported);
    assert.ok(body.latency_us.all && body.alignment === null, "an import carries latency, not alignment");
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${imported}/workload?${period}`);
    assert.equal(await page.getByTestId("imported-badge").count(), 1);
    assert.equal((await drawn(page, "histogram-latency_us")).series, `Reads and writes:${sum(body.latency_us.all)}`);
    await page.getByRole("heading", { name: "Latency, imported from vscsiStats" }).waitFor();
    assert.equal(await page.getByTestId("alignment-empty").textContent(), "vscsiStats output has no alignment counts.");
    await page.screenshot({ path: IMPORTED_SCREENSHOT, fullPage: true });
  });

  test("Download fio job saves the api's job file for the page's range, paced by default or unpaced", async () => {
    const apiJob = async (rate: boolean) => {
      const res = await fetch(`${env.TIERWISE_API_URL}/v1/volumes/${seed.busiest}/fio-job?${period}&rate=${rate}`, { headers: { cookie: `tw_session=${session}` } });
      assert.equal(res.status, 200);
      return res.text();
    };
    const download = async () => {
      const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download fio job" }).click()]);
      assert.equal(file.suggestedFilename(), `tierwise-${seed.busiest}.fio`);
      return readFile((await file.path())!, "utf8");
    };
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${seed.busiest}/workload?${period}`);
    const paced = await download();
    assert.match(paced, /^rw=randrw$/m);
    assert.match(paced, /^rate_iops=\d+,\d+$/m);
    assert.equal(paced, await apiJob(true), "the api's file for the page's range");
    await page.getByLabel("fio job pacing").selectOption("false");
    const unpaced = await download();
    assert.match(unpaced, /^rw=randrw$/m);
    assert.doesNotMatch(unpaced, /rate_iops/);
    assert.equal(unpaced, await apiJob(false));

    // The route answers the api's status for a volume it does not have, and 400 for a bad option.
    const cookie = (await browser.context.cookies(env.TIERWISE_WEB_URL)).map((c) => `${c.name}=${c.value}`).join("; ");
    const route = (volumeId: string, rate: string) => fetch(`${env.TIERWISE_WEB_URL}/volumes/${volumeId}/fio-job?${period}&rate=${rate}`, { headers: { cookie } });
    assert.equal((await route("0".repeat(16), "true")).status, 404);
    assert.equal((await route(seed.busiest, "fast")).status, 400);
  });
});
