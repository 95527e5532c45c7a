/**
 * The analytics pages against the real stack (test profile PostgreSQL, the built api and portal,
 * headless Chromium), signed in as the owner of a fresh organization whose rollups, working-set
 * estimates and recommendations are seeded as the Flink jobs would write them
 * (analytics-seed.ts): the charts of a volume fill and show the api's numbers, the breakdowns,
 * the point detail, the workload, matrix and working-set views, the fleet overview, and a
 * recommendation applied (the desired policy), then measured against its prediction.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import type { Page } from "playwright-core";
import { launchChromium } from "../scripts/chromium.mjs";
import { formatTimestamp, formatValue } from "../lib/format.js";
import { dropAnalytics, HOSTILE_NAME, seedAnalytics, type AnalyticsSeed } from "./analytics-seed.js";
import { deleteUsers, freshEmail, logIn, signUpVerified } from "./support/accounts.js";
import { testEnv } from "./support/env.js";
import type { Server } from "./support/processes.js";
import { startApi, startWeb } from "./support/stack.js";

const env = testEnv();
const owner = { email: freshEmail("analytics-owner"), password: "correct horse battery staple", name: "Ana Lytics", organization: "Analytics Test Storage" };
/** The page asks the api for this many points (lib/analytics-api.ts CHART_WIDTH). */
const CHART_WIDTH = 720;

/** Waits for a chart's "finished" drawing and returns its data-* attributes. */
async function drawn(page: Page, testId: string): Promise<Record<string, string>> {
  await page.waitForSelector(`[data-testid="${testId}"][data-points]`, { timeout: 30_000 });
  return page.getByTestId(testId).evaluate((el) => ({ ...(el as HTMLElement).dataset }) as Record<string, string>);
}

/** "name:n,name:n" of a chart's data-series as a map. */
const seriesCounts = (attr: string) => Object.fromEntries(attr.split(",").map((s) => [s.slice(0, s.lastIndexOf(":")), Number(s.slice(s.lastIndexOf(":") + 1))]));

describe("analytics pages in headless Chromium", { timeout: 300_000 }, () => {
  let api: Server;
  let web: Server;
  let seed: AnalyticsSeed;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let session: string;
  const db = new pg.Client({ connectionString: env.TIERWISE_PG_OWNER_URL });

  /** GET from the api as the signed-in owner (the portal's session cookie). */
  const apiGet = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${env.TIERWISE_API_URL}${path}`, { headers: { cookie: `tw_session=${session}` } });
    assert.equal(res.status, 200, `GET ${path}: ${res.status}`);
    return (await res.json()) as T;
  };

  before(async () => {
    await db.connect();
    api = await startApi();
    const tenantId = await signUpVerified(env.TIERWISE_API_URL, env.TIERWISE_PG_OWNER_URL, owner);
    seed = await seedAnalytics(env.TIERWISE_PG_OWNER_URL, tenantId, 3);
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
    await db.end();
  });

  test("a volume's IOPS, throughput and latency charts fill from the rollups with the api's numbers", async () => {
    const from = new Date(seed.to.getTime() - 2 * 3600_000).toISOString();
    const to = seed.to.toISOString();
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${seed.busiest}?${new URLSearchParams({ from, to })}`);
    const iops = await drawn(page, "iops-chart");
    const body = await apiGet<{ points: { t: string; read_iops: number; write_iops: number; latency: { p99_us: number } }[]; resolution: string }>(
      `/v1/series?${new URLSearchParams({ scope: "volume", scope_id: seed.busiest, from, to, width: String(CHART_WIDTH) })}`,
    );
    assert.equal(body.resolution, "10s", "2 hours at 720 px read the 10 s rollups");
    assert.ok(body.points.length > 600, `the api gave ${body.points.length} points`);
    assert.equal(Number(iops.points), body.points.length, "one drawn point per api point");
    // The storage-type breakdown (the default): the busiest volume is write-back with a peer (WB+1).
    const n = body.points.length;
    assert.deepEqual(seriesCounts(iops.series), { "VM observed": n, Cache: n, Peer: n, Datastore: n });
    assert.deepEqual(seriesCounts((await drawn(page, "throughput-chart")).series), { "VM observed": n, Cache: n, Peer: n, Datastore: n });
    const latency = seriesCounts((await drawn(page, "latency-chart")).series);
    assert.deepEqual(Object.keys(latency), ["VM observed p50", "VM observed p99", "Cache p50", "Cache p99", "Peer p50", "Peer p99", "Datastore p50", "Datastore p99"]);
    assert.ok(Object.values(latency).every((count) => count === n), "every source's latency at every point");

    // The data table (the charts' accessible fallback) shows the api's numbers.
    const table = page.getByTestId("iops-chart").locator("xpath=..").locator("details");
    await table.locator("summary").click();
    const firstRow = await table.locator("tbody tr").first().locator("td").allTextContents();
    assert.equal(firstRow[1], formatValue(body.points[0].read_iops + body.points[0].write_iops, "iops"));
    // Keyboard path to a point's detail: the row's button; the detail shows that point's p99.
    await table.locator("tbody tr").nth(5).getByRole("button", { name: "Show" }).press("Enter");
    const detail = page.getByTestId("point-detail");
    await detail.waitFor();
    assert.ok((await detail.locator("tbody tr").first().textContent())!.includes(formatValue(body.points[5].latency.p99_us, "us")));
    await detail.getByRole("button", { name: "Close" }).click();
    // Clicking the plot selects the nearest point: the detail names a time inside the range.
    const box = (await page.getByTestId("latency-chart").boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await detail.waitFor();
    const heading = await detail.locator("h3").textContent();
    assert.ok(body.points.some((p) => heading!.startsWith(formatTimestamp(p.t))), `the detail is of an api point: ${heading}`);
  });

  test("the storage-type breakdown draws the peer's IOPS, throughput and latency when the rollups carry it", async () => {
    const from = new Date(seed.to.getTime() - 2 * 3600_000).toISOString();
    const to = seed.to.toISOString();
    const query = new URLSearchParams({ from, to });
    type Source = { iops: number; bytes_per_s: number; latency: { p99_us: number } | null } | null;
    const body = await apiGet<{ points: { sources: { peer: Source; datastore: Source } }[] }>(
      `/v1/series?${new URLSearchParams({ scope: "volume", scope_id: seed.busiest, from, to, width: String(CHART_WIDTH) })}`,
    );
    assert.ok(body.points.every((p) => p.sources.peer && p.sources.peer.iops > 0), "the api has the peer's I/Os at every point");
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${seed.busiest}?${query}`);
    await drawn(page, "throughput-chart");
    // The data tables hold the drawn numbers: the Peer column is the api's peer series.
    const column = async (testId: string, name: string) => {
      const table = page.getByTestId(testId).locator("xpath=..").locator("details");
      await table.locator("summary").click();
      const headers = await table.locator("thead th").allTextContents();
      return table.locator("tbody tr").first().locator("td").nth(headers.indexOf(name)).textContent();
    };
    const first = body.points[0].sources.peer!;
    assert.equal(await column("iops-chart", "Peer"), formatValue(first.iops, "iops"));
    assert.equal(await column("throughput-chart", "Peer"), formatValue(first.bytes_per_s, "bytes_per_s"));
    assert.equal(await column("latency-chart", "Peer p99"), formatValue(first.latency!.p99_us, "us"));

    // A write-through volume replicates nothing: no Peer line, and the page says why.
    const writeThrough = seed.volumes.find((v) => !v.writeBack)!;
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${writeThrough.volumeId}?${query}`);
    assert.deepEqual(Object.keys(seriesCounts((await drawn(page, "iops-chart")).series)), ["VM observed", "Cache", "Datastore"]);
    await page.getByText("Not in this range: Peer").waitFor();
    // The host of both sums them: its peer series is the write-back volume's.
    await page.goto(`${env.TIERWISE_WEB_URL}/hosts/${seed.hosts[0].hostId}?${query}`);
    assert.ok(seriesCounts((await drawn(page, "throughput-chart")).series).Peer > 0, "the host draws its volume's peer traffic");
    // The tier the host's two volumes share: recommended from their merged stream, drawn with every curve.
    assert.match(
      (await page.getByTestId("host-recommendation").textContent()) ?? "",
      /^2 GiB RAM write-back \+1 peer, S3-FIFO eviction, for the 2 volumes together \(a tier per volume would take 4 GiB in all\)\.$/,
    );
    const hostMrc = await drawn(page, "mrc-chart");
    assert.equal(hostMrc.recommendedBytes, String(2 * 2 ** 30));
    assert.equal(hostMrc.currentBytes, String(seed.cluster.capacityBytes / 2), "the host's volumes' tiers added up");
  });

  test("breakdowns by read/write, block size and a custom selection redraw the charts", async () => {
    const to = seed.to.toISOString();
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${seed.busiest}?${new URLSearchParams({ from: new Date(seed.to.getTime() - 2 * 3600_000).toISOString(), to })}`);
    await page.getByRole("link", { name: "Read/write" }).click();
    await page.waitForURL(/breakdown=direction/);
    assert.deepEqual(Object.keys(seriesCounts((await drawn(page, "iops-chart")).series)), ["Read", "Write"]);
    await page.getByRole("link", { name: "Block size" }).click();
    await page.waitForURL(/breakdown=size/);
    assert.deepEqual(Object.keys(seriesCounts((await drawn(page, "iops-chart")).series)), ["4 KiB", "8 KiB", "64 KiB"]);
    await page.getByRole("link", { name: "Custom" }).click();
    await page.waitForURL(/breakdown=custom/);
    await page.getByLabel("Direction").selectOption("write");
    await page.getByRole("checkbox", { name: "64 KiB" }).check();
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/bin=65536/);
    const custom = seriesCounts((await drawn(page, "latency-chart")).series);
    assert.ok(custom["Selection p99"] > 0, "the selection's percentiles are drawn");
  });

  test("workload, performance matrix and working set views draw the seeded data", async () => {
    const range = "range=6h";
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${seed.busiest}/workload?${range}`);
    const shares = seriesCounts((await drawn(page, "block-size-share-chart")).series);
    assert.deepEqual(Object.keys(shares), ["4 KiB", "8 KiB", "64 KiB"]);
    assert.ok(Object.values(shares).every((n) => n > 0));
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${seed.busiest}/matrix?${range}`);
    const matrix = await drawn(page, "latency-matrix");
    // 96 columns over 6 h are 4-minute points; the 3 seeded hours fill 45 of them, each with the 3 size bins.
    assert.equal(Number(matrix.cells) % 3, 0, "every column has a cell per size bin");
    assert.ok(Number(matrix.cells) >= 3 * 44, `${matrix.cells} heatmap cells (3 size bins x the points)`);
    await page.goto(`${env.TIERWISE_WEB_URL}/volumes/${seed.busiest}/working-set?${range}`);
    assert.ok(Number((await drawn(page, "wss-chart")).points) > 100, "working set estimates once a minute");
    assert.equal((await drawn(page, "mrc-chart")).recommendedBytes, String(4 * 2 ** 30));
  });

  test("the Clusters page lists the cluster with its hosts, volumes and shared tier; its page shows the shared tier's recommendation and draws the working set over time and the MRC with both tiers", async () => {
    await page.goto(`${env.TIERWISE_WEB_URL}/fleet`);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Clusters" }).click();
    await page.waitForURL(/\/clusters$/);
    const row = page.locator(`[data-testid="cluster-row"][data-cluster-id="${seed.cluster.clusterId}"]`);
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    assert.deepEqual(cells.slice(0, 2), ["2", "2"], "2 hosts, 2 volumes");
    assert.equal(cells[3], formatValue(seed.cluster.capacityBytes, "bytes"), "current tier: the volumes' tiers added up");
    assert.equal(cells[4], formatValue(3 * 2 ** 30, "bytes"), "recommended: the shared tier, from the merged stream");
    await row.getByRole("link").click();
    await page.waitForURL(new RegExp(`/clusters/${seed.cluster.clusterId}`));
    const shared = (await page.getByTestId("cluster-recommendation").textContent()) ?? "";
    assert.match(shared, /^3 GiB NVME write-through, S3-FIFO eviction, for the 2 volumes together \(a tier per volume would take 4 GiB in all\)\.$/);
    assert.match((await page.getByTestId("cluster-tier-writes").textContent()) ?? "", /6 GiB.*2\.0 drive writes per day/);
    await page.getByRole("heading", { name: /Working set size over time/ }).waitFor();
    // The last 6 hours hold the seeded 3, once a minute: a point a minute.
    const from = new Date(seed.to.getTime() - 6 * 3600_000).toISOString();
    const to = seed.to.toISOString();
    await page.goto(`${env.TIERWISE_WEB_URL}/clusters/${seed.cluster.clusterId}?${new URLSearchParams({ from, to })}`);
    const history = await apiGet<{ points: unknown[] }>(
      `/v1/clusters/${seed.cluster.clusterId}/working-set/history?${new URLSearchParams({ from, to, width: String(CHART_WIDTH), window: "1h" })}`,
    );
    const wss = await drawn(page, "wss-chart");
    assert.ok(history.points.length > 100, `${history.points.length} points of the cluster's working set`);
    assert.equal(Number(wss.points), history.points.length, "one drawn point per api point");
    assert.deepEqual(Object.keys(seriesCounts(wss.series)), ["Working set", "Read working set", "Write working set", "Current tier", "Recommended tier"]);
    const mrc = await drawn(page, "mrc-chart");
    assert.equal(mrc.currentBytes, String(seed.cluster.capacityBytes));
    assert.equal(mrc.recommendedBytes, String(3 * 2 ** 30));
    assert.equal(mrc.marks, "2");
  });

  test("on a phone (390 px) the volume page's charts fit the screen", async () => {
    const phone = await browser.context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${env.TIERWISE_WEB_URL}/volumes/${seed.busiest}?range=6h`);
    await drawn(phone, "latency-chart");
    const { scroll, inner, chart } = await phone.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      inner: window.innerWidth,
      chart: document.querySelector('[data-testid="iops-chart"]')!.getBoundingClientRect().width,
    }));
    assert.ok(scroll <= inner, `no sideways scrolling (page ${scroll} px wide in ${inner} px)`);
    assert.ok(chart > 250 && chart <= inner, `the chart takes the screen's width (${chart} px)`);
    await phone.close();
  });

  test("the fleet overview shows offload figures, top volumes and the performance map", async () => {
    await page.goto(`${env.TIERWISE_WEB_URL}/fleet?range=6h`);
    assert.equal(Number((await drawn(page, "performance-map")).points), 3, "three volumes with I/O on the map");
    assert.equal(await page.getByTestId("top-iops").locator("tbody tr").first().locator("th").textContent(), "sql-data-01");
    assert.match((await page.getByTestId("hero-bytes-offloaded").locator(".tile__value").textContent())!, /[KMGT]iB$/);
  });

  test("a hostile volume name is text on every page that draws names, in tables and in the map's tooltip", async () => {
    const hostile = seed.volumes.find((v) => v.name === HOSTILE_NAME)!;
    const injected = () => page.evaluate(() => ({ element: document.querySelector('img[src="x"]') !== null, ran: "__xss" in window }));
    for (const path of ["/fleet?range=6h", "/volumes", `/hosts/${hostile.hostId}?range=6h`, `/volumes/${hostile.volumeId}?range=6h`, "/recommendations", "/search?q=sql-log"]) {
      await page.goto(`${env.TIERWISE_WEB_URL}${path}`);
      await page.waitForLoadState("networkidle");
      assert.deepEqual(await injected(), { element: false, ran: false }, `${path}: the name's markup is not a DOM element`);
    }
    await page.goto(`${env.TIERWISE_WEB_URL}/fleet?range=6h`);
    assert.ok((await page.getByText(HOSTILE_NAME).count()) > 0, "the fleet page shows the name as written");
    // Hover the hostile volume's tile on the performance map (its label) until its tooltip shows.
    const map = page.getByTestId("performance-map");
    await drawn(page, "performance-map");
    await map.locator("svg text", { hasText: "sql-log-01" }).hover();
    // The tooltip is the chart's div without the drawing (the SVG's own labels are text nodes).
    const tooltipOf = (el: Element) =>
      Array.from(el.querySelectorAll("div"), (d) => (d.querySelector("svg") ? "" : d.innerHTML)).find((h) => h.includes("sql-log-01")) ?? "";
    await page.waitForFunction(`(${tooltipOf.toString()})(document.querySelector('[data-testid="performance-map"]')) !== ""`);
    const tooltip = await map.evaluate(tooltipOf);
    assert.match(tooltip, /sql-log-01&lt;img src="x" onerror="window.__xss=1"&gt;|sql-log-01&lt;img src=&quot;x&quot;/, `the tooltip escapes it: ${tooltip}`);
    assert.deepEqual(await injected(), { element: false, ran: false }, "hovered: no element, nothing ran");
  });

  test("apply a recommendation: the desired policy, then applied and measured against the prediction", async () => {
    await page.goto(`${env.TIERWISE_WEB_URL}/recommendations/${seed.busiest}`);
    assert.equal(await page.getByTestId("recommendation-status").textContent(), "open");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByTestId("recommendation-status").filter({ hasText: "applied" }).waitFor({ timeout: 30_000 });
    assert.match((await page.getByTestId("policy-desired").textContent())!, /^v1: 4 GiB NVME, write-through/);
    assert.match((await page.getByTestId("policy-applied").textContent())!, /not yet/);

    // The agent's policy pull is another branch's (issue 4): report the applied version as it will.
    await db.query("UPDATE volume_policies SET applied_version = version, applied_at = now() WHERE tenant_id = $1 AND volume_id = $2", [seed.tenantId, seed.busiest]);
    // The agent then runs the 4 GiB tier: intervals at that capacity measure the prediction (db trigger).
    await db.query(
      `INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds, read_ops, write_ops, read_bytes, write_bytes,
                                      cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes)
       VALUES ($1, $2, now(), 10, 8000, 2000, 32768000, 8192000, 8200, 1800, 6560, 1440, 0, $3, $3)`,
      [seed.tenantId, seed.busiest, 4 * 2 ** 30],
    );
    await page.reload();
    assert.match((await page.getByTestId("policy-applied").textContent())!, /^v1 at .* \(in sync\)$/);
    assert.equal(await page.getByTestId("measured-hit-ratio").locator(".tile__value").textContent(), "82.0%");
    assert.equal(Number((await drawn(page, "predicted-vs-measured")).points), 1);
  });
});
