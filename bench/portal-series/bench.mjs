/**
 * The figures of bench/portal-series/run.sh: answer time, body size and ECharts draw time of
 * 7 days of one volume's 10 s data, (a) downsampled by GET /v1/series to `width` points (the api
 * chooses the 1 min rollups), (b) GET /v1/series forced to read the 10 s rollups (same points,
 * 6x the windows merged), (c) no downsampling: every 10 s window via GET /v1/rollups (2,000 per
 * request), drawn as they come. Medians of 5 runs after one warm-up (the paged peer: 1 run after one
 * warm-up, it takes a minute). Prints one line per case.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { setTimeout as sleep } from "node:timers/promises";
import { coarserWindows, hexId, insertRollups, syntheticWindows, TestTenants } from "@tierwise/common/testing";
import { launchChromium } from "../../web/scripts/chromium.mjs";

const width = Number(process.argv[2]);
const DAYS = 7;
const RUNS = 5;
const port = Number(process.env.TIERWISE_API_PORT);
const url = `http://127.0.0.1:${port}`;
const require = createRequire(new URL("../../web/package.json", import.meta.url));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${x.toFixed(0)} ms`;

async function startApi() {
  const child = spawn(process.execPath, ["services/api/dist/main.js"], { env: { ...process.env, TIERWISE_API_RATE_LIMIT_PER_MINUTE: "100000" }, stdio: ["ignore", "ignore", "inherit"], detached: true });
  for (let i = 0; i < 120; i++) {
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) return child;
    await sleep(250);
  }
  process.kill(-child.pid, "SIGTERM");
  throw new Error(`the api did not start on ${url}`);
}

/** GETs JSON, timing the whole answer (request to parsed body) and counting its bytes. */
async function timed(path, key) {
  const t0 = performance.now();
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text}`);
  const body = JSON.parse(text);
  return { ms: performance.now() - t0, bytes: text.length, body };
}

/** Every 10 s window of the range through GET /v1/rollups, page by page (its cap is 2,000 points). */
async function allWindows(key, volumeId, from, to) {
  let cursor = from.getTime();
  const points = [];
  let bytes = 0;
  const t0 = performance.now();
  while (cursor < to.getTime()) {
    const r = await timed(`/v1/rollups?scope=volume&scope_id=${volumeId}&resolution=10s&from=${new Date(cursor).toISOString()}&to=${to.toISOString()}`, key);
    bytes += r.bytes;
    const page = r.body.series[0]?.points ?? [];
    points.push(...page);
    if (!r.body.truncated || page.length === 0) break;
    cursor = Date.parse(page.at(-1).window_start) + 10_000;
  }
  return { ms: performance.now() - t0, bytes, points };
}

const tenants = new TestTenants();
let api;
let browser;
try {
  const tenant = await tenants.create("bench-series");
  const volumeId = hexId();
  const to = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
  const from = new Date(to.getTime() - DAYS * 86_400_000);
  const rows = syntheticWindows(tenant.tenant_id, "volume", volumeId, from, DAYS * 8640);
  const t0 = performance.now();
  await insertRollups(tenants.owner, [...rows, ...coarserWindows(rows)]);
  console.log(`load average ${(await readFile("/proc/loadavg", "utf8")).split(" ").slice(0, 3).join(" ")} on ${(await import("node:os")).cpus().length} cores`);
  console.log(`seeded ${rows.length} 10 s windows (${DAYS} days) of one volume + their 1 min/1 h/1 d rollups in ${ms(performance.now() - t0)}`);
  api = await startApi();

  browser = await launchChromium({ width: width + 100, height: 500 });
  const page = await browser.context.newPage();
  await page.setContent(`<div id="c" style="width:${width}px;height:400px"></div>`);
  await page.addScriptTag({ content: await readFile(require.resolve("echarts/dist/echarts.min.js"), "utf8") });
  /** Draws [t, read iops, write iops, p99] rows as three line series (SVG, as the portal); ms to the "finished" event. */
  const draw = (data) =>
    page.evaluate((data) => {
      const el = document.getElementById("c");
      echarts.dispose(el);
      const chart = echarts.init(el, null, { renderer: "svg" });
      const t0 = performance.now();
      return new Promise((resolve) => {
        chart.on("finished", () => resolve(performance.now() - t0));
        chart.setOption({
          animation: false,
          xAxis: { type: "time" },
          yAxis: [{ type: "value" }, { type: "value" }],
          series: [1, 2, 3].map((i) => ({ type: "line", showSymbol: false, yAxisIndex: i === 3 ? 1 : 0, data: data.map((r) => [r[0], r[i]]) })),
        });
      });
    }, data);

  const range = `from=${from.toISOString()}&to=${to.toISOString()}`;
  const cases = [
    ["downsampled (GET /v1/series, api picks the resolution)", () => timed(`/v1/series?scope_id=${volumeId}&${range}&width=${width}`, tenant.api_key),
      (b) => b.points.map((p) => [Date.parse(p.t), p.read_iops, p.write_iops, p.latency?.p99_us ?? null]), (b) => `${b.resolution} rollups, ${b.windows_read} windows`],
    ["peer: downsampled from the 10 s rollups (resolution=10s)", () => timed(`/v1/series?scope_id=${volumeId}&${range}&width=${width}&resolution=10s`, tenant.api_key),
      (b) => b.points.map((p) => [Date.parse(p.t), p.read_iops, p.write_iops, p.latency?.p99_us ?? null]), (b) => `${b.resolution} rollups, ${b.windows_read} windows`],
    ["peer: no downsampling (GET /v1/rollups 10 s, paged; 1 run)", async () => { const r = await allWindows(tenant.api_key, volumeId, from, to); return { ...r, body: r.points }; },
      (b) => b.map((p) => [Date.parse(p.window_start), p.read_ops / 10, p.write_ops / 10, Math.max(...p.latency.map((l) => l.p99_us))]), () => "10s rollups"],
  ];
  for (const [name, fetchIt, toRows, what] of cases) {
    const answers = [];
    const draws = [];
    let last;
    const runs = name.includes("1 run") ? 1 : RUNS;
    for (let run = 0; run <= runs; run++) {
      last = await fetchIt();
      const data = toRows(last.body);
      const drawn = await draw(data);
      if (run > 0) (answers.push(last.ms), draws.push(drawn));
    }
    const points = toRows(last.body).length;
    const total = median(answers.map((a, i) => a + draws[i]));
    console.log(`${name}: ${points} points (${what(last.body)}), ${(last.bytes / 1e6).toFixed(2)} MB; answer ${ms(median(answers))}, draw ${ms(median(draws))}, answer+draw ${ms(total)}`);
  }
} finally {
  await browser?.close();
  if (api) process.kill(-api.pid, "SIGTERM");
  await tenants.cleanUp();
}
