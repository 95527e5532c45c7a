/**
 * "CPU beside latency" on the volume page against the real stack (test profile PostgreSQL, the
 * built api and portal, headless Chromium; issue 18, docs/workload.md "Storage-bound CPU"), signed
 * in as the owner of a fresh organization seeded by cpu-seed.ts: a volume accelerated five minutes
 * ago draws its VM-observed latency beside the host's busy CPU, iowait and the consumer's CPU; its
 * policy change reads as work getting done (the badge, the api's sentence, the before/after
 * figures); a replayed volume without CPU time says so in one line, and without an applied policy
 * has no reading; the panel fits a phone and follows the dark scheme. Saves test-results/cpu.png.
 */
import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Page } from "playwright-core";
import { launchChromium } from "../scripts/chromium.mjs";
import { formatCores, formatCount, formatLatency, formatPercent, formatTimestamp } from "../lib/format.js";
import { dropAnalytics } from "./analytics-seed.js";
import { AFTER, BEFORE, HOST_CPUS, POLICY_VERSION, seedCpu, type CpuSeed } from "./cpu-seed.js";
import { deleteUsers, freshEmail, logIn, signUpVerified } from "./support/accounts.js";
import { testEnv } from "./support/env.js";
import type { Server } from "./support/processes.js";
import { startApi, startWeb, WEB_DIR } from "./support/stack.js";

const env = testEnv();
const SCREENSHOT = join(WEB_DIR, "test-results", "cpu.png");
const owner = { email: freshEmail("cpu-owner"), password: "correct horse battery staple", name: "Per Nix", organization: "CPU Test Storage" };

interface Side {
  seconds: number;
  iops: number;
  latency_p50_us: number | null;
  host_busy: number | null;
  host_iowait: number | null;
  consumer_cores: number | null;
  cpu_us_per_io: number | null;
}
interface EffectBody {
  policy_version: number;
  applied_at: string;
  before: Side | null;
  after: Side | null;
  verdict: string;
  statement: string;
}
interface SeriesBody {
  points: { t: string; latency: { p50_us: number } | null; cpu: { host_busy: number; host_iowait: number; consumer_cores: number | null } | null }[];
}

/** Waits for a chart's "finished" drawing and returns its data-* attributes. */
async function drawn(page: Page, testId: string): Promise<Record<string, string>> {
  await page.waitForSelector(`[data-testid="${testId}"][data-points]`, { timeout: 30_000 });
  return page.getByTestId(testId).evaluate((el) => ({ ...(el as HTMLElement).dataset }) as Record<string, string>);
}

const near = (a: number | null | undefined, b: number) => a != null && Math.abs(a - b) < 1e-3;

describe("CPU beside latency in headless Chromium", { timeout: 300_000 }, () => {
  let api: Server;
  let web: Server;
  let tenantId: string;
  let seed: CpuSeed;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let session: string;
  let period: URLSearchParams;

  /** GET `path` from the api as the signed-in owner. */
  const apiGet = async <T,>(path: string, status = 200): Promise<T> => {
    const res = await fetch(`${env.TIERWISE_API_URL}${path}`, { headers: { cookie: `tw_session=${session}` } });
    assert.equal(res.status, status, path);
    return (await res.json()) as T;
  };
  const volumePage = (volumeId: string) => page.goto(`${env.TIERWISE_WEB_URL}/volumes/${volumeId}?${period}`);

  before(async () => {
    api = await startApi();
    tenantId = await signUpVerified(env.TIERWISE_API_URL, env.TIERWISE_PG_OWNER_URL, owner);
    seed = await seedCpu(env.TIERWISE_PG_OWNER_URL, tenantId);
    period = new URLSearchParams({ from: seed.from.toISOString(), to: seed.to.toISOString() });
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
    if (tenantId) await dropAnalytics(env.TIERWISE_PG_OWNER_URL, tenantId);
    await deleteUsers(env.TIERWISE_PG_OWNER_URL, [owner.email]);
  });

  test("the chart draws VM-observed latency beside the host's busy CPU, its iowait and the consumer's CPU", async () => {
    const series = await apiGet<SeriesBody>(`/v1/series?${new URLSearchParams({ scope: "volume", scope_id: seed.accelerated.volumeId, ...Object.fromEntries(period), width: "720" })}`);
    const withCpu = series.points.filter((p) => p.cpu);
    assert.ok(withCpu.length > 0 && withCpu.length === series.points.length, "every seeded window carried CPU time");
    const last = series.points.at(-1)!;
    assert.ok(near(last.cpu!.host_busy, AFTER.host_busy) && near(last.cpu!.consumer_cores, AFTER.consumer_cores), "the api reads the seeded CPU");

    await volumePage(seed.accelerated.volumeId);
    const chart = await drawn(page, "cpu-latency-chart");
    const n = series.points.length;
    assert.equal(chart.series, `VM-observed latency p50:${n},Host CPU busy:${n},Host iowait:${n},Consumer CPU:${n}`);
    const text = await page.getByTestId("cpu-latency-chart").locator("svg text").allTextContents();
    for (const legend of ["VM-observed latency p50", "Host CPU busy", "Host iowait", "Consumer CPU"]) assert.ok(text.includes(legend), `legend names ${legend}`);
    await page.getByText(`CPU as a share of the host's ${HOST_CPUS} CPUs; the consumer is the processes attached to the volume's export.`).waitFor();
    // The consumer is drawn as its share of the host's CPUs; its tooltip says the cores.
    await page.getByTestId("cpu-latency-chart").scrollIntoViewIfNeeded();
    const box = (await page.getByTestId("cpu-latency-chart").boundingBox())!;
    await page.mouse.move(box.x + box.width - 80, box.y + box.height / 2);
    await page.getByTestId("cpu-latency-chart").getByText(`${formatCores(AFTER.consumer_cores)} (${formatPercent(AFTER.consumer_cores / HOST_CPUS)} of the host)`).waitFor({ timeout: 10_000 });

    // The data table (the chart's accessible fallback): the first point before the change, the last after it.
    const table = page.getByTestId("cpu-latency-chart").locator("xpath=..").locator("details");
    await table.locator("summary").click();
    assert.deepEqual(await table.locator("thead th").allTextContents(), ["Time (UTC)", "VM-observed latency p50", "Host CPU busy", "Host iowait", "Consumer CPU"]);
    const row = (i: number) => table.locator("tbody tr").nth(i).locator("td").allTextContents();
    const first = series.points[0];
    assert.deepEqual(await row(0), [formatTimestamp(first.t), formatLatency(first.latency!.p50_us), formatPercent(BEFORE.host_busy), formatPercent(BEFORE.host_iowait), formatCores(BEFORE.consumer_cores)]);
    assert.deepEqual(await row(n - 1), [formatTimestamp(last.t), formatLatency(last.latency!.p50_us), formatPercent(AFTER.host_busy), formatPercent(AFTER.host_iowait), formatCores(AFTER.consumer_cores)]);
  });

  test("the policy change reads as work getting done: the badge, the api's sentence and the before/after figures", async () => {
    const effect = await apiGet<EffectBody>(`/v1/volumes/${seed.accelerated.volumeId}/policy-effect`);
    assert.equal(effect.verdict, "work_done");
    assert.equal(effect.policy_version, POLICY_VERSION);
    const [b, a] = [effect.before!, effect.after!];
    assert.ok(near(b.host_busy, BEFORE.host_busy) && near(a.host_busy, AFTER.host_busy) && near(b.consumer_cores, BEFORE.consumer_cores) && near(a.consumer_cores, AFTER.consumer_cores));
    assert.ok(a.latency_p50_us! < b.latency_p50_us! && a.iops > 1.3 * b.iops, "latency fell and IOPS rose with the seeded change");

    await volumePage(seed.accelerated.volumeId);
    const reading = page.getByTestId("policy-effect");
    assert.equal(await reading.getAttribute("data-verdict"), "work_done");
    const badge = page.getByTestId("policy-effect-verdict");
    assert.equal(await badge.textContent(), "Work getting done");
    assert.match((await badge.getAttribute("class"))!, /\bbadge--ok\b/);
    assert.equal(await page.getByTestId("policy-effect-statement").textContent(), effect.statement);
    assert.match(effect.statement, /The extra CPU is work getting done, not a problem/);
    assert.match((await page.getByTestId("policy-effect-applied").textContent())!, new RegExp(`^version ${POLICY_VERSION}, applied ${formatTimestamp(seed.appliedAt.toISOString())}; `));

    const rows = await page.getByTestId("policy-effect-table").locator("tbody tr").evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll("th, td"), (c) => c.textContent)),
    );
    assert.deepEqual(rows, [
      ["Latency p50", formatLatency(b.latency_p50_us), formatLatency(a.latency_p50_us)],
      ["IOPS", formatCount(b.iops), formatCount(a.iops)],
      ["Host CPU busy", "20.0%", "28.0%"],
      ["Host iowait", "15.0%", "3.0%"],
      ["Consumer CPU", "1.00 cores", "1.50 cores"],
      ["CPU per I/O", formatLatency(b.cpu_us_per_io), formatLatency(a.cpu_us_per_io)],
    ]);
  });

  test("a volume without CPU time says so in one line, and without an applied policy has no reading", async () => {
    const series = await apiGet<SeriesBody>(`/v1/series?${new URLSearchParams({ scope: "volume", scope_id: seed.replayed.volumeId, ...Object.fromEntries(period), width: "720" })}`);
    assert.ok(series.points.length > 0 && series.points.every((p) => p.cpu === null), "a replay carries no CPU time");
    await apiGet(`/v1/volumes/${seed.replayed.volumeId}/policy-effect`, 404);

    await volumePage(seed.replayed.volumeId);
    await drawn(page, "latency-chart");
    const none = page.getByTestId("cpu-none");
    assert.equal(await none.count(), 1);
    assert.equal(
      await none.textContent(),
      "No CPU time in this range: the agent reports the host's and the consumer's CPU from serve (agent 2026-11 and later); replays, imports and older agents carry none.",
    );
    assert.equal(await page.getByTestId("cpu-latency-chart").count(), 0, "no empty chart");
    assert.equal(await page.getByTestId("policy-effect").count(), 0);
    assert.equal(await page.getByTestId("policy-effect-none").count(), 1);
  });

  test("the panel fits a phone and follows the dark scheme", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await volumePage(seed.accelerated.volumeId);
    await drawn(page, "cpu-latency-chart");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling at 390 px (overflow ${overflow} px)`);
    await page.setViewportSize({ width: 1280, height: 900 });

    const toggle = page.getByTestId("theme-toggle");
    await toggle.click(); // system -> light
    await toggle.click(); // light -> dark
    await page.waitForSelector('[data-testid="cpu-latency-chart"][data-scheme="dark"][data-points]', { timeout: 15_000 });
    await mkdir(dirname(SCREENSHOT), { recursive: true });
    await page.getByTestId("cpu-panel").screenshot({ path: SCREENSHOT });
    await toggle.click(); // dark -> system
  });
});
