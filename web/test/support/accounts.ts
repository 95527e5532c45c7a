import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Page } from "playwright-core";

/** A mail the api queued for the notifier (outbox kind account.email), as the notifier would send it. */
export interface AccountMail {
  subject: string;
  text: string;
}

/**
 * The account mails (verification, reset, invitation) queued to `to`, oldest first, read from
 * the notifier's outbox as tierwise_owner (the api's own tests do the same).
 */
export async function mailsTo(ownerUrl: string, to: string): Promise<AccountMail[]> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ payload: AccountMail }>(
      `SELECT payload FROM outbox WHERE event_kind = 'account.email' AND payload->>'to' = $1 ORDER BY id`,
      [to],
    );
    return rows.map((r) => r.payload);
  } finally {
    await client.end();
  }
}

/**
 * The portal link of a mail (e.g. `${webUrl}/verify-email?token=…`).
 * @throws Error when the mail holds no link to `path`.
 */
export function mailLink(mail: AccountMail, path: string): string {
  const link = mail.text.match(new RegExp(`https?://\\S+${path.replace(/[/?]/g, "\\$&")}\\?token=[A-Za-z0-9_-]+`));
  if (!link) throw new Error(`the mail "${mail.subject}" has no ${path} link:\n${mail.text}`);
  return link[0];
}

/**
 * The link to `path` of the latest mail to `to` that has one, waiting up to 5 s (the api may
 * queue a mail after answering).
 * @throws Error when no such mail arrives.
 */
export async function latestLink(ownerUrl: string, to: string, path: string): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const mail = (await mailsTo(ownerUrl, to)).filter((m) => m.text.includes(`${path}?token=`)).at(-1);
    if (mail) return mailLink(mail, path);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} with a ${path} link`);
}

/** A fresh address under example.test (RFC 2606), unique per run. */
export function freshEmail(label: string): string {
  return `${label}-${randomBytes(4).toString("hex")}@example.test`;
}

/**
 * Signs up through the api (POST /v1/auth/signup) and confirms the address with the token of
 * the verification mail, as a user following the link would.
 * @returns the id of the organization (tenant) the sign-up created.
 */
export async function signUpVerified(apiUrl: string, ownerUrl: string, account: { email: string; password: string; name: string; organization: string }): Promise<string> {
  const post = (path: string, body: unknown) =>
    fetch(`${apiUrl}${path}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const signup = await post("/v1/auth/signup", { email: account.email, password: account.password, display_name: account.name, organization_name: account.organization });
  if (signup.status !== 202) throw new Error(`sign-up answered ${signup.status}: ${await signup.text()}`);
  const token = new URL(await latestLink(ownerUrl, account.email, "/verify-email")).searchParams.get("token");
  const verified = await post("/v1/auth/verify-email", { token });
  if (verified.status !== 200) throw new Error(`verify-email answered ${verified.status}: ${await verified.text()}`);
  return tenantOf(ownerUrl, account.email);
}

/** The organization `email` belongs to (its first membership). */
export async function tenantOf(ownerUrl: string, email: string): Promise<string> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ tenant_id: string }>(
      "SELECT m.tenant_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = $1 ORDER BY m.created_at LIMIT 1",
      [email],
    );
    if (!rows[0]) throw new Error(`${email} is a member of no organization`);
    return rows[0].tenant_id;
  } finally {
    await client.end();
  }
}

/** Deletes the users of `emails` (their memberships and sessions go with them). */
export async function deleteUsers(ownerUrl: string, emails: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    await client.query("DELETE FROM users WHERE email = ANY($1)", [emails]);
  } finally {
    await client.end();
  }
}

/** Signs in through the portal's login form, at `${webUrl}/login` (with `next` when given), and waits to leave the login page. */
export async function logIn(page: Page, webUrl: string, email: string, password: string, next?: string): Promise<void> {
  await page.goto(next ? `${webUrl}/login?${new URLSearchParams({ next })}` : `${webUrl}/login`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname !== "/login");
}
