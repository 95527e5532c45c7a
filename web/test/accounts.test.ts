/**
 * Portal accounts and administration in headless Chromium against the real api and
 * PostgreSQL (test profile): sign up, confirm the address from the mail, sign in, the empty
 * fleet; invite a member who accepts; roles decide what shows; create and revoke an API key
 * (and the api refuses it afterwards); the audit log; password reset; switching organization; sign-out; every page
 * without a session redirects to /login with the way back. Mails are read from the notifier's
 * outbox, as the notifier would send them. Needs built @tierwise/api and @tierwise/web.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import pg from "pg";
import type { Page } from "playwright-core";
import { launchChromium } from "../scripts/chromium.mjs";
import { deleteUsers, freshEmail, latestLink, logIn, tenantOf } from "./support/accounts.js";
import { testEnv } from "./support/env.js";
import { dropTenant } from "./support/fixture.js";
import type { Server } from "./support/processes.js";
import { startApi, startWeb } from "./support/stack.js";

const env = testEnv();
const WEB = env.TIERWISE_WEB_URL;
const owner = { email: freshEmail("owner"), password: "a long enough passphrase", name: "Olga Owner", organization: "Olga's Storage" };
const member = { email: freshEmail("member"), password: "another long passphrase", name: "Max Member" };

/** The link to `path` of the latest mail to `to`. */
const mailedLink = (to: string, path: string) => latestLink(env.TIERWISE_PG_OWNER_URL, to, path);

/** Clicks the button `button` of the form with test id `form` and returns the Server Action's new answer. */
async function submit(page: Page, form: string, button: string): Promise<string> {
  const message = page.getByTestId(form).getByTestId("form-message");
  const before = (await message.count()) ? await message.textContent() : null;
  await page.getByTestId(form).getByRole("button", { name: button }).click();
  await page.waitForFunction(
    ([id, previous]) => {
      const text = document.querySelector(`[data-testid="${id}"] [data-testid="form-message"]`)?.textContent;
      return text != null && text !== previous;
    },
    [form, before] as const,
  );
  return (await message.textContent()) ?? "";
}

describe("portal accounts in headless Chromium", { timeout: 240_000 }, () => {
  let api: Server;
  let web: Server;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let tenantId: string | undefined;
  let secondTenantId: string | undefined;

  before(async () => {
    api = await startApi();
    web = await startWeb({ TIERWISE_API_URL: env.TIERWISE_API_URL });
    browser = await launchChromium();
    page = await browser.context.newPage();
  });

  after(async () => {
    await browser?.close();
    await web?.stop();
    await api?.stop();
    for (const id of [tenantId, secondTenantId]) if (id) await dropTenant(env.TIERWISE_PG_OWNER_URL, id);
    await deleteUsers(env.TIERWISE_PG_OWNER_URL, [owner.email, member.email]);
  });

  test("without a session every page redirects to /login with the way back", async () => {
    for (const path of ["/", "/volumes", "/settings/members", "/settings/api-keys?status=all"]) {
      const response = await page.goto(`${WEB}${path}`);
      assert.equal(response?.status(), 200, `${path} ends on the login page`);
      const url = new URL(page.url());
      assert.equal(url.pathname, "/login", `${path} redirects to /login`);
      assert.equal(url.searchParams.get("next"), path === "/" ? null : path, `${path} is the return path`);
    }
    assert.equal(await page.getByRole("heading", { name: "Sign in to Tierwise" }).count(), 1);
    assert.equal(await page.getByRole("navigation", { name: "Main" }).count(), 0, "no navigation before signing in");
  });

  test("sign up, confirm the address from the mail, sign in: the empty fleet", async () => {
    await page.goto(`${WEB}/signup`);
    await page.getByLabel("Your name").fill(owner.name);
    await page.getByLabel("Organization").fill(owner.organization);
    await page.getByLabel("E-mail address").fill(owner.email);
    assert.equal(await page.getByLabel("Password").getAttribute("minlength"), "12", "the browser asks for the API's 12 characters");
    await page.getByLabel("Password").fill(owner.password);
    assert.match(await submit(page, "signup-form", "Create account"), new RegExp(`we mailed a link to ${owner.email}`));
    tenantId = await tenantOf(env.TIERWISE_PG_OWNER_URL, owner.email);

    await page.goto(`${WEB}/login`);
    await page.getByLabel("E-mail address").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    assert.match(await submit(page, "login-form", "Sign in"), /confirm your e-mail address first/, "no login before confirming");

    await page.goto(await mailedLink(owner.email, "/verify-email"));
    assert.match(await submit(page, "verify-form", "Confirm my address"), /Your address is confirmed/);

    await page.goto(`${WEB}/login`);
    await page.getByLabel("E-mail address").fill(owner.email);
    await page.getByLabel("Password").fill("not the password at all");
    assert.match(await submit(page, "login-form", "Sign in"), /e-mail address or password is wrong/);

    await logIn(page, WEB, owner.email, owner.password, "/volumes");
    assert.equal(new URL(page.url()).pathname, "/volumes", "back to the page asked for");
    assert.equal(await page.getByTestId("fleet-volumes").locator(".tile__value").textContent(), "0", "a new organization has no volume");
    assert.equal(await page.getByTestId("volume-row").count(), 0);
    const whoami = page.getByTestId("whoami");
    assert.equal(await whoami.getAttribute("data-role"), "owner");
    assert.match((await whoami.textContent()) ?? "", new RegExp(`${owner.organization}.*${owner.name}`));
    const nav = await page.getByRole("navigation", { name: "Main" }).getByRole("link").allTextContents();
    assert.deepEqual(nav, ["Overview", "Volumes", "Clusters", "Recommendations", "Benchmarks", "Agents", "Settings"]);
    assert.equal(await page.getByRole("link", { name: "Volumes" }).getAttribute("aria-current"), "page");
  });

  test("create an API key (shown once), use it, revoke it: the api refuses it", async () => {
    await page.goto(`${WEB}/settings/api-keys`);
    await page.getByLabel("Name").fill("ci pipeline");
    await page.getByLabel("Scope").selectOption("read");
    assert.match(await submit(page, "create-key-form", "Create key"), /Copy it now/);
    const key = await page.getByTestId("revealed-secret").inputValue();
    assert.match(key, /^twk_/);
    const summary = () => fetch(`${env.TIERWISE_API_URL}/v1/fleet/summary`, { headers: { Authorization: `Bearer ${key}` } });
    assert.equal((await summary()).status, 200, "the new key reads the fleet");

    const row = page.locator('[data-testid="api-key-row"][data-name="ci pipeline"]');
    await row.waitFor();
    assert.equal(await row.getAttribute("data-status"), "active");
    assert.ok(!(await row.textContent())?.includes(key), "the list shows only the prefix");
    await page.reload();
    assert.equal(await page.getByTestId("revealed-secret").count(), 0, "the secret is gone after a reload");

    await row.getByRole("button", { name: "Revoke" }).click();
    await row.waitFor({ state: "detached" });
    assert.equal((await summary()).status, 401, "the revoked key is refused");
    await page.getByRole("link", { name: "Revoked" }).click();
    await page.waitForURL("**/settings/api-keys?status=revoked");
    assert.equal(await page.locator('[data-testid="api-key-row"][data-name="ci pipeline"]').getAttribute("data-status"), "revoked");

    await page.goto(`${WEB}/settings/audit-log`);
    const actions = await page.getByTestId("audit-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-action")));
    assert.deepEqual(actions.slice(0, 2), ["api_key.revoke", "api_key.create"], "newest first");
    assert.ok(actions.includes("organization.create"));
    await page.getByLabel("Action").fill("api_key.create");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL("**/settings/audit-log?action=api_key.create");
    assert.equal(await page.getByTestId("audit-row").count(), 1);
  });

  test("invite a member, who accepts from the mail and sees what a viewer may", async () => {
    await page.goto(`${WEB}/settings/members`);
    const invite = page.getByTestId("invite-form");
    await invite.getByLabel("E-mail address").fill(member.email);
    await invite.getByLabel("Role").selectOption("viewer");
    assert.match(await submit(page, "invite-form", "Send invitation"), new RegExp(`Invitation mailed to ${member.email} as viewer`));
    await page.locator(`[data-testid="invitation-row"][data-email="${member.email}"]`).waitFor();
    assert.equal(await invite.getByLabel("E-mail address").inputValue(), "", "the form is cleared after a success");
    await invite.getByLabel("E-mail address").fill(member.email);
    assert.match(await submit(page, "invite-form", "Send invitation"), /already has a pending invitation/, "the API's refusal shows in words");

    await page.getByTestId("logout").click();
    await page.waitForURL("**/login");
    await page.goto(await mailedLink(member.email, "/accept-invitation"));
    await page.getByLabel("Your name").fill(member.name);
    await page.getByLabel("Password").fill(member.password);
    await page.getByRole("button", { name: "Accept the invitation" }).click();
    await page.waitForURL((url) => url.pathname !== "/accept-invitation");
    assert.equal(await page.getByTestId("whoami").getAttribute("data-role"), "viewer");

    await page.goto(`${WEB}/settings/members`);
    assert.equal(await page.getByTestId("member-row").count(), 2);
    assert.equal(await page.getByRole("button", { name: "Change role" }).count(), 0, "a viewer cannot manage members");
    assert.equal(await page.getByTestId("invite-form").count(), 0);
    const sections = await page.getByRole("navigation", { name: "Settings" }).getByRole("link").allTextContents();
    assert.deepEqual(sections, ["Members", "Notifications", "Delivery log"], "no API keys or audit log for a viewer");
    await page.goto(`${WEB}/settings/api-keys`);
    assert.equal(await page.getByTestId("error-view").getAttribute("data-error-code"), "forbidden");

    await page.getByTestId("logout").click();
    await page.waitForURL("**/login");
    await logIn(page, WEB, owner.email, owner.password, "/settings/members");
    const row = page.locator(`[data-testid="member-row"][data-email="${member.email}"]`);
    assert.equal(await row.getAttribute("data-role"), "viewer");
    await row.getByLabel(`Role of ${member.email}`).selectOption("admin");
    await row.getByRole("button", { name: "Change role" }).click();
    await page.locator(`[data-testid="member-row"][data-email="${member.email}"][data-role="admin"]`).waitFor();
  });

  test("a forgotten password: the mailed link sets a new one", async () => {
    await page.getByTestId("logout").click();
    await page.waitForURL("**/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.waitForURL("**/forgot-password");
    await page.getByLabel("E-mail address").fill(member.email);
    assert.match(await submit(page, "forgot-form", "Mail me a link"), /a link to choose a new password is on its way/);
    await page.goto(await mailedLink(member.email, "/reset-password"));
    member.password = "a brand new passphrase";
    await page.getByLabel("New password").fill(member.password);
    assert.match(await submit(page, "reset-form", "Set the new password"), /Your password is changed/);
    await logIn(page, WEB, member.email, member.password);
    assert.equal(await page.getByTestId("whoami").getAttribute("data-role"), "admin");
  });

  test("a member of two organizations switches between them from the header", async () => {
    const db = new pg.Client({ connectionString: env.TIERWISE_PG_OWNER_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string }>("INSERT INTO tenants (name) VALUES ('Second Storage') RETURNING id");
      secondTenantId = rows[0].id;
      await db.query("INSERT INTO memberships (tenant_id, user_id, role) SELECT $1, id, 'viewer' FROM users WHERE email = $2", [secondTenantId, member.email]);
    } finally {
      await db.end();
    }
    await page.goto(`${WEB}/settings/members`);
    const switcher = page.getByLabel("Organization", { exact: true });
    assert.deepEqual(await switcher.locator("option").allTextContents(), [`${owner.organization} (admin)`, "Second Storage (viewer)"]);
    await switcher.selectOption({ label: "Second Storage (viewer)" });
    await page.getByRole("button", { name: "Switch organization" }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="whoami"]')?.getAttribute("data-role") === "viewer");
    assert.equal(await page.getByLabel("Organization", { exact: true }).inputValue(), secondTenantId);
    await page.goto(`${WEB}/settings/members`);
    assert.deepEqual(await page.getByTestId("member-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-email"))), [member.email], "the second organization's members");
  });

  test("the shell: dark mode toggle, keyboard skip link, a phone-width screen", async () => {
    await page.goto(`${WEB}/settings/members`);
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await page.emulateMedia({ colorScheme: "light" });
    const light = await background();
    await page.getByTestId("theme-toggle").click(); // system -> light
    await page.getByTestId("theme-toggle").click(); // light -> dark
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
    assert.notEqual(await background(), light, "dark mode changes the background");
    await page.reload();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark", "the choice survives a reload");
    await page.getByTestId("theme-toggle").click(); // dark -> system
    assert.equal(await background(), light);

    await page.goto(`${WEB}/settings/members`);
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Skip to content", "the first Tab reaches the skip link");

    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ["/settings/members", "/settings/api-keys", "/settings/audit-log", "/login"]) {
      await page.goto(`${WEB}${path}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${path}: no horizontal scrolling at 390 px (overflow ${overflow} px)`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test("every response carries the security headers; a page's scripts carry the nonce its policy names", async () => {
    const login = await fetch(`${WEB}/login`);
    const html = await login.text();
    const icon = await fetch(`${WEB}/icon.svg`);
    const asset = html.match(/src="(\/_next\/static\/[^"]+\.js)"/)?.[1];
    assert.ok(asset, "the login page loads Next.js' scripts");
    const redirect = await fetch(`${WEB}/volumes`, { redirect: "manual" });
    for (const [what, response] of [["page", login], ["icon", icon], ["script", await fetch(`${WEB}${asset}`)], ["redirect to login", redirect]] as const) {
      assert.equal(response.headers.get("x-content-type-options"), "nosniff", what);
      assert.equal(response.headers.get("x-frame-options"), "DENY", what);
      assert.equal(response.headers.get("referrer-policy"), "strict-origin-when-cross-origin", what);
    }
    for (const response of [login, redirect]) {
      const policy = response.headers.get("content-security-policy") ?? "";
      assert.match(policy, /frame-ancestors 'none'/);
      assert.doesNotMatch(policy.match(/script-src[^;]*/)?.[0] ?? "", /unsafe-inline/, "no inline script runs without the nonce");
    }
    const nonce = login.headers.get("content-security-policy")?.match(/'nonce-([^']+)'/)?.[1];
    assert.ok(nonce, "the policy names a nonce");
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.ok(scripts.length > 0);
    assert.deepEqual(scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`)), [], "every script tag carries the nonce");
    // Markup that slipped through would not run (the policy is enforced, not only sent): finding 1's
    // payload, an inline event handler, is refused by the browser.
    await page.goto(`${WEB}/login`);
    const ran = await page.evaluate(async () => {
      const violations: string[] = [];
      document.addEventListener("securitypolicyviolation", (e) => violations.push(e.violatedDirective));
      document.body.insertAdjacentHTML("beforeend", '<img src="/no-such-image" onerror="window.__injected = true">');
      await new Promise((resolve) => setTimeout(resolve, 500));
      return { injected: (window as unknown as { __injected?: boolean }).__injected === true, violations };
    });
    assert.equal(ran.injected, false, "an injected event handler is blocked");
    assert.ok(ran.violations.some((d) => d.startsWith("script-src")), `the browser reports it: ${ran.violations.join(", ")}`);
  });

  test("signing in never leaves the portal, whatever the way back says", async () => {
    const portal = new URL(WEB).origin;
    // Open redirects a prefix check let through (issue 16): a tab or a backslash after the first
    // slash, and dot segments before a double slash; then the plain ones.
    for (const next of ["/\t/evil.example/x", "/\t\\evil.example/x", "/../..//evil.example", "/%2e%2e/%2e%2e//evil.example", "//evil.example", "https://evil.example/"]) {
      await browser.context.clearCookies();
      await logIn(page, WEB, owner.email, owner.password, next);
      assert.equal(new URL(page.url()).origin, portal, `next=${JSON.stringify(next)} stays on the portal (at ${page.url()})`);
    }
    await browser.context.clearCookies();
    await logIn(page, WEB, owner.email, owner.password, "/settings/members?tab=1");
    assert.equal(new URL(page.url()).pathname, "/settings/members", "a portal path still works");
  });
});
