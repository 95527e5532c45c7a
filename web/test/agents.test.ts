/**
 * The agents page in headless Chromium against the real api and PostgreSQL (test profile):
 * an owner asks for an install command, an agent enrolls with its token and reports its
 * health through the api's agent routes (what install.sh and the agent do), the page shows
 * it, the owner revokes it and the api then refuses the agent; a viewer sees the agents but
 * gets no install command. Needs built @tierwise/api and @tierwise/web.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import type { Page } from "playwright-core";
import { launchChromium } from "../scripts/chromium.mjs";
import { deleteUsers, freshEmail, logIn, signUpVerified } from "./support/accounts.js";
import { testEnv } from "./support/env.js";
import { dropTenant } from "./support/fixture.js";
import type { Server } from "./support/processes.js";
import { startApi, startWeb } from "./support/stack.js";

const env = testEnv();
const WEB = env.TIERWISE_WEB_URL;
const API = env.TIERWISE_API_URL;
const owner = { email: freshEmail("agents-owner"), password: "a long enough passphrase", name: "Aga Agents", organization: "Agents Test Storage" };
const GiB = 1024 ** 3;

/** A JSON call to the api as an agent (or anonymously, for enrollment). */
function agentCall(method: string, path: string, body: unknown, credential?: string): Promise<Response> {
  return fetch(`${API}${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...(credential ? { Authorization: `Bearer ${credential}` } : {}) },
    body: JSON.stringify(body),
  });
}

describe("the agents page in headless Chromium", { timeout: 180_000 }, () => {
  let api: Server;
  let web: Server;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let tenantId: string | undefined;
  let credential: string;
  let agentId: string;

  before(async () => {
    api = await startApi();
    tenantId = await signUpVerified(API, env.TIERWISE_PG_OWNER_URL, owner);
    web = await startWeb({ TIERWISE_API_URL: API });
    browser = await launchChromium();
    page = await browser.context.newPage();
    await logIn(page, WEB, owner.email, owner.password, "/agents");
  });

  after(async () => {
    await browser?.close();
    await web?.stop();
    await api?.stop();
    if (tenantId) await dropTenant(env.TIERWISE_PG_OWNER_URL, tenantId);
    await deleteUsers(env.TIERWISE_PG_OWNER_URL, [owner.email]);
  });

  test("an install command with a fresh token; the agent it enrolls shows with its health", async () => {
    assert.match((await page.getByTestId("agents-empty").textContent()) ?? "", /No active agent: add one above/);
    const form = page.getByTestId("enroll-form");
    await form.getByLabel("Name (optional)").fill("rack 12");
    await form.getByLabel("Valid for").selectOption("3600");
    await form.getByRole("button", { name: "Get an install command" }).click();
    const command = await page.getByTestId("revealed-secret").inputValue();
    const match = command.match(/^curl -fsSL (\S+)\/install\.sh \| sudo sh -s -- --token (\S+)$/);
    assert.ok(match, `an install command (got "${command}")`);
    assert.equal(match[1], API, "the installer comes from the api");
    const token = match[2];
    await page.getByTestId("token-row").first().waitFor({ state: "attached" }); // inside the closed <details>
    assert.match((await page.getByTestId("token-row").first().textContent()) ?? "", /rack 12/);

    const hostId = randomBytes(8).toString("hex");
    const enrolled = await agentCall("POST", "/v1/agents/enroll", { enrollment_token: token, host_id: hostId, version: "0.1.0" });
    assert.equal(enrolled.status, 201, await enrolled.clone().text());
    ({ agent_id: agentId, credential } = (await enrolled.json()) as { agent_id: string; credential: string });
    assert.equal((await agentCall("POST", "/v1/agents/enroll", { enrollment_token: token, host_id: hostId, version: "0.1.0" })).status >= 400, true, "a token enrolls once");

    await page.reload();
    const row = page.locator(`[data-testid="agent-row"][data-agent-id="${agentId}"]`);
    assert.match((await row.textContent()) ?? "", new RegExp(`host ${hostId}.*never reported`));
    assert.equal(await page.getByTestId("token-row").count(), 0, "the used token is no longer offered");

    // An agent that only replays traces reports no health: ingest's sighting of its host (the
    // inventory row ingest writes, services/ingest inventory.repository) shows it alive, with the time.
    const db = new pg.Client({ connectionString: env.TIERWISE_PG_OWNER_URL });
    await db.connect();
    try {
      await db.query("INSERT INTO hosts (tenant_id, host_id, agent_id, last_seen) VALUES ($1, $2, $3, now() - interval '30 seconds') ON CONFLICT (tenant_id, host_id) DO UPDATE SET agent_id = EXCLUDED.agent_id, last_seen = EXCLUDED.last_seen", [tenantId, hostId, agentId]);
    } finally {
      await db.end();
    }
    await page.reload();
    const replaying = await row.locator("td").allTextContents();
    assert.equal(replaying[1], "sending telemetry");
    assert.equal(replaying[2], "—", "no health report");
    assert.notEqual(replaying[3], "—", "the time ingest last accepted its telemetry");

    const health = { version: "0.1.1", uptime_seconds: 7200, volume_count: 12, tier_used_bytes: 3 * GiB, tier_capacity_bytes: 8 * GiB, error_count: 0, last_error: null };
    const reported = await agentCall("PUT", "/v1/agent/health", health, credential);
    assert.equal(reported.status, 200, await reported.clone().text());
    await page.reload();
    const cells = await row.locator("td").allTextContents();
    assert.equal(cells[1], "reporting");
    assert.deepEqual(cells.slice(4, 8), ["0.1.1", "2 h", "12", "3 GiB of 8 GiB"]);
  });

  test("revoke: the row moves to the revoked list and the api refuses the agent", async () => {
    const row = page.locator(`[data-testid="agent-row"][data-agent-id="${agentId}"]`);
    await row.getByRole("button", { name: "Revoke" }).click();
    await row.waitFor({ state: "detached" });
    const refused = await agentCall("PUT", "/v1/agent/health", { version: "0.1.1", uptime_seconds: 7300, volume_count: 12, tier_used_bytes: 0, tier_capacity_bytes: 0, error_count: 0 }, credential);
    assert.equal(refused.status, 401, "a revoked agent is refused");
    await page.getByRole("link", { name: "Revoked" }).click();
    await page.waitForURL("**/agents?status=revoked");
    assert.equal(await page.locator(`[data-testid="agent-row"][data-agent-id="${agentId}"]`).getAttribute("data-status"), "revoked");
    assert.equal(await page.locator(`[data-testid="agent-row"][data-agent-id="${agentId}"]`).getByRole("button", { name: "Revoke" }).count(), 0);
  });
});
