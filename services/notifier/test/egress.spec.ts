import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_URL, Harness, RETRY } from './support/harness.js';

/**
 * The egress guard at send time (SSRF): Slack webhook rows written before the api checked
 * targets, or by hand, are refused before any connection when they leave the trusted origin or
 * resolve to a non-public address; the delivery log records a short code, never the answer's
 * body; a redirect is not followed.
 */
const h = new Harness();

beforeAll(() => h.start());
afterEach(() => h.afterEach());
afterAll(() => h.stop());

/** The delivery log of a tenant's attempts: every error recorded. */
async function attemptErrors(tenantId: string): Promise<string[]> {
  const { rows } = await h.tenants.owner.query<{ error: string }>('SELECT error FROM delivery_attempts WHERE tenant_id = $1 ORDER BY id', [tenantId]);
  return rows.map((row) => row.error);
}

describe('egress guard at send', () => {
  it('refuses webhook rows off the trusted origin: nothing reaches the target, last_error is only a code', async () => {
    const tenant = await h.createTenant('egress-off-origin');
    const port = new URL(h.slackUrl).port;
    const targets = [
      `http://127.0.0.1:${port}/hooks/loopback`,
      `http://localhost:${port}/hooks/localhost`,
      `https://hooks.slack.com@127.0.0.1:${port}/hooks/userinfo`,
      `http://[::1]:${port}/hooks/ipv6`,
      `https://2130706433:${port}/hooks/decimal`,
      'https://hooks.slack.com.evil.example/services/T0/B0/x',
      'http://169.254.169.254/latest/meta-data/',
    ];
    for (const target of targets) await h.addChannel(tenant, { kind: 'slack-webhook', target });
    h.slack.always = { status: 500, body: 'root:x:0:0 secret answer' };
    await h.recommend(tenant, 'f00d0001');

    await h.drain(h.notifier(API_URL, 'https://hooks.slack.com'), [tenant]);

    expect(h.slack.requests).toEqual([]);
    const rows = await h.deliveries(tenant);
    expect(rows.map((d) => [d.status, d.attempts])).toEqual(targets.map(() => ['dead', 1]));
    expect(rows.map((d) => d.last_error).sort()).toEqual([
      'egress_refused:host_not_allowed',
      'egress_refused:host_not_allowed',
      'egress_refused:not_https',
      'egress_refused:not_https',
      'egress_refused:not_https',
      'egress_refused:not_https',
      'egress_refused:userinfo',
    ]);
  });

  it('refuses the trusted host when it resolves to a loopback address, before connecting', async () => {
    const tenant = await h.createTenant('egress-dns');
    const port = new URL(h.slackUrl).port;
    await h.addChannel(tenant, { kind: 'slack-webhook', target: `https://localhost:${port}/hooks/rebound` });
    await h.recommend(tenant, 'f00d0002');

    await h.drain(h.notifier(API_URL, `https://localhost:${port}`), [tenant]);

    expect(h.slack.requests).toEqual([]);
    expect(await h.deliveries(tenant)).toEqual([expect.objectContaining({ status: 'dead', attempts: 1, last_error: 'egress_refused:private_address' })]);
  });

  it("records the receiver's status only, never its body, and follows no redirect", async () => {
    const failing = await h.createTenant('egress-body');
    await h.addChannel(failing, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/failing` });
    h.slack.always = { status: 500, body: 'internal: password=hunter2' };
    await h.recommend(failing, 'f00d0003');
    await h.drain(h.notifier(), [failing]);
    expect(await h.deliveries(failing)).toEqual([expect.objectContaining({ status: 'dead', attempts: RETRY.maxAttempts, last_error: 'http_500' })]);
    expect(await attemptErrors(failing)).toEqual(Array(RETRY.maxAttempts).fill('http_500'));

    h.slack.always = undefined;
    const redirected = await h.createTenant('egress-redirect');
    await h.addChannel(redirected, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/redirect` });
    h.slack.script = [{ status: 302, body: 'moved', headers: { location: `${h.slackUrl}/hooks/elsewhere` } }];
    h.slack.requests.length = 0;
    await h.recommend(redirected, 'f00d0004');
    await h.drain(h.notifier(), [redirected]);
    expect(h.slack.requests.map((r) => r.path)).toEqual(['/hooks/redirect']);
    expect(await h.deliveries(redirected)).toEqual([expect.objectContaining({ status: 'dead', attempts: 1, last_error: 'http_302' })]);
  });
});
