/**
 * Every portal page the screenshot script (screenshots.mjs) captures, in order: one place to
 * add a page. Each entry is
 *   { name, path, signedIn?, viewport?, prepare? }
 * - name: docs/screenshots/<name>.png
 * - path: the portal path, or a function (page, baseUrl) => path for pages found from another
 *   (e.g. the busiest volume's page)
 * - signedIn: false for the account pages shot before signing in (default true)
 * - viewport: { width, height } in CSS pixels (default 1280×900)
 * - prepare: async (page) => void, run after the page loaded (e.g. click a toggle)
 */

export const NARROW = { width: 390, height: 844 };

/** The first (busiest) volume of /volumes, for the volume pages. */
async function busiestVolume(page, baseUrl) {
  await page.goto(`${baseUrl}/volumes`);
  const firstRow = page.locator('[data-testid="volume-row"]').first();
  if (!(await firstRow.count())) throw new Error(`${baseUrl}/volumes lists no volume; run ./tierwise demo first`);
  return `/volumes/${await firstRow.getAttribute("data-volume-id")}`;
}

/** The busiest volume's host, from the volume page's crumbs. */
async function busiestHost(page, baseUrl) {
  await page.goto(`${baseUrl}${await busiestVolume(page, baseUrl)}`);
  const href = await page.locator('.crumbs a[href^="/hosts/"]').first().getAttribute("href");
  return href.split("?")[0];
}

/** The first cluster of /clusters, for the cluster page. */
async function firstCluster(page, baseUrl) {
  await page.goto(`${baseUrl}/clusters`);
  const firstRow = page.locator('[data-testid="cluster-row"]').first();
  if (!(await firstRow.count())) throw new Error(`${baseUrl}/clusters lists no cluster; run the demo's agents with --cluster`);
  return `/clusters/${await firstRow.getAttribute("data-cluster-id")}`;
}

/** Opens the detail of the latency chart's middle point from its data table (the keyboard path). */
async function openPointDetail(page) {
  await page.waitForSelector('[data-testid="latency-chart"][data-points]');
  const table = page.getByTestId("latency-chart").locator("xpath=..").locator("details");
  await table.locator("summary").click();
  const rows = table.locator("tbody tr");
  await rows.nth(Math.floor((await rows.count()) / 2)).getByRole("button", { name: "Show" }).press("Enter");
  await page.getByTestId("point-detail").waitFor();
}

/** @type {Array<{ name: string, path: string | ((page: import("playwright-core").Page, baseUrl: string) => Promise<string>), signedIn?: boolean, viewport?: { width: number, height: number }, prepare?: (page: import("playwright-core").Page) => Promise<void> }>} */
export const PAGES = [
  { name: "login", path: "/login", signedIn: false },
  { name: "signup", path: "/signup", signedIn: false },
  { name: "volumes", path: "/volumes" },
  { name: "volume", path: busiestVolume },
  {
    name: "volume-by-bytes",
    path: busiestVolume,
    prepare: async (page) => {
      await page.getByTestId("block-size-bytes").click();
      await page.waitForSelector('[data-testid="block-size-chart"][data-metric="bytes"]');
    },
  },
  { name: "volume-narrow", path: busiestVolume, viewport: NARROW },
  { name: "fleet", path: "/fleet?range=7d" },
  { name: "fleet-narrow", path: "/fleet?range=7d", viewport: NARROW },
  { name: "host", path: async (page, baseUrl) => `${await busiestHost(page, baseUrl)}?range=7d` },
  { name: "volume-read-write", path: async (page, baseUrl) => `${await busiestVolume(page, baseUrl)}?range=7d&breakdown=direction` },
  { name: "volume-block-size", path: async (page, baseUrl) => `${await busiestVolume(page, baseUrl)}?range=7d&breakdown=size` },
  { name: "volume-point-detail", path: async (page, baseUrl) => `${await busiestVolume(page, baseUrl)}?range=7d`, prepare: openPointDetail },
  { name: "volume-workload", path: async (page, baseUrl) => `${await busiestVolume(page, baseUrl)}/workload?range=7d` },
  { name: "volume-matrix", path: async (page, baseUrl) => `${await busiestVolume(page, baseUrl)}/matrix?range=7d` },
  { name: "volume-working-set", path: async (page, baseUrl) => `${await busiestVolume(page, baseUrl)}/working-set?range=7d` },
  { name: "clusters", path: "/clusters" },
  { name: "cluster", path: async (page, baseUrl) => `${await firstCluster(page, baseUrl)}?range=7d` },
  { name: "recommendations", path: "/recommendations" },
  { name: "recommendation", path: async (page, baseUrl) => (await busiestVolume(page, baseUrl)).replace("/volumes/", "/recommendations/") },
  { name: "benchmarks", path: "/benchmarks" },
  { name: "agents", path: "/agents" },
  {
    name: "agents-install",
    path: "/agents",
    prepare: async (page) => {
      await page.getByRole("button", { name: "Get an install command" }).click();
      await page.getByTestId("revealed-secret").waitFor();
    },
  },
  { name: "settings-members", path: "/settings/members" },
  { name: "settings-api-keys", path: "/settings/api-keys" },
  { name: "settings-notifications", path: "/settings/notifications" },
  { name: "settings-deliveries", path: "/settings/deliveries" },
  { name: "settings-audit-log", path: "/settings/audit-log" },
  { name: "settings-members-narrow", path: "/settings/members", viewport: NARROW },
  {
    name: "settings-api-keys-dark",
    path: "/settings/api-keys",
    prepare: async (page) => {
      await page.emulateMedia({ colorScheme: "dark" });
    },
  },
];
