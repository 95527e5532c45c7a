import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Harness } from './support/harness.js';
import { API_MAIN, freePort, ServiceProcess } from './support/processes.js';

/**
 * E-mail on the real SMTP server: the MIME the server receives, RFC 8058 one-click unsubscribe
 * through the real api (its built dist/main.js as a process), and daily digests.
 */
const h = new Harness();
let api: ServiceProcess;
let apiUrl: string;

beforeAll(async () => {
  await h.start();
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  api = await ServiceProcess.start(API_MAIN, { TIERWISE_API_PORT: String(port) }, `${apiUrl}/healthz`);
});
afterEach(() => h.afterEach());
afterAll(async () => {
  await api?.stop();
  await h.stop();
});

/** An unfolded header of a raw message (RFC 5322 §2.2.3), or undefined. */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return head.split(/\r?\n/).find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))?.slice(name.length + 1).trim();
}

async function unsubscribedAt(channelId: string): Promise<Date | null> {
  const { rows } = await h.tenants.owner.query('SELECT unsubscribed_at FROM notification_channels WHERE id = $1', [channelId]);
  return rows[0].unsubscribed_at;
}

describe('e-mail', () => {
  it('sends one multipart/alternative mail per event whose RFC 8058 one-click link unsubscribes the recipient', async () => {
    const tenant = await h.createTenant('mime');
    const channel = await h.addChannel(tenant, { kind: 'email', target: 'ops@example.com' });
    await h.recommend(tenant, 'abcd0001');
    await h.recommend(tenant, 'abcd0002');
    await h.drain(h.notifier(apiUrl), [tenant]);

    expect(h.smtp.mails.map((m) => m.subject).sort()).toEqual([
      '[Tierwise] New recommendation for volume abcd0001: 1.5 GiB NVMe write-back',
      '[Tierwise] New recommendation for volume abcd0002: 1.5 GiB NVMe write-back',
    ]);
    const mail = h.smtp.mails[0]!;
    expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(mail.raw).toMatch(/^Content-Type: text\/plain; charset=utf-8/m);
    expect(mail.raw).toMatch(/^Content-Type: text\/html; charset=utf-8/m);
    expect(mail.text).toContain('Predicted hit ratio: 92.0 %');
    expect(mail.text).toContain('Open in Tierwise: http://127.0.0.1:3999/volumes/abcd');
    expect(mail.html).toContain('<a href="http://127.0.0.1:3999/volumes/abcd');
    expect(mail.html).toContain('miss ratio curve flattens');

    // List-Unsubscribe: <https URL> (RFC 2369) and List-Unsubscribe-Post (RFC 8058 §3.1).
    const listUnsubscribe = /^<([^>]+)>$/.exec(header(mail.raw, 'List-Unsubscribe') ?? '')?.[1];
    expect(listUnsubscribe).toMatch(new RegExp(`^${apiUrl}/v1/notifications/unsubscribe\\?token=${tenant}\\.${channel}\\.[\\w-]{43}$`));
    expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain(`Unsubscribe: ${listUnsubscribe}`);
    expect(mail.html).toContain(`href="${listUnsubscribe!.replace(/&/g, '&amp;')}"`);

    // GET (a link scanner or the recipient's browser) only shows a confirmation form.
    const page = await fetch(listUnsubscribe!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('o***@example.com');
    expect(html).toContain('<form method="post"');
    expect(await unsubscribedAt(channel)).toBeNull();

    // A forged token is refused.
    const forged = await fetch(`${listUnsubscribe!.slice(0, -4)}AAAA`, { method: 'POST' });
    expect(forged.status).toBe(400);
    expect(await unsubscribedAt(channel)).toBeNull();

    // The one-click POST a mail client sends unsubscribes.
    const click = await fetch(listUnsubscribe!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(click.status).toBe(200);
    expect(await click.text()).toContain('receives no further Tierwise notifications');
    expect(await unsubscribedAt(channel)).toBeInstanceOf(Date);

    // Later events are not delivered to the unsubscribed recipient.
    h.smtp.reset();
    await h.recommend(tenant, 'abcd0003');
    await h.drain(h.notifier(apiUrl), [tenant]);
    expect(h.smtp.mails).toHaveLength(0);
    expect((await h.deliveries(tenant)).map((d) => d.status)).toEqual(['sent', 'sent']);
  });

  it('collects a daily digest: one mail for the events of the previous day, sent once through an SMTP failure', async () => {
    const tenant = await h.createTenant('digest');
    const channel = await h.addChannel(tenant, { kind: 'email', target: 'lead@example.com', digest: 'daily' });
    for (const volume of ['dddd1001', 'dddd1002', 'dddd1003']) await h.recommend(tenant, volume);
    const notifier = h.notifier(apiUrl);
    await notifier.pollOnce();
    expect(h.smtp.attempts).toBe(0); // held until the day is over
    expect((await h.deliveries(tenant)).map((d) => d.status)).toEqual(['held', 'held', 'held']);

    // The day ends: the held deliveries now belong to yesterday (UTC, the channel's digest time zone).
    await h.tenants.owner.query(`UPDATE deliveries SET created_at = created_at - interval '1 day' WHERE tenant_id = $1`, [tenant]);
    await h.recommend(tenant, 'dddd1004'); // today's: waits for tomorrow's digest
    h.smtp.rejectNext = 1;
    await expect
      .poll(async () => {
        await notifier.pollOnce();
        return h.smtp.mails.length;
      }, { timeout: 10_000, interval: 50 })
      .toBe(1);
    await notifier.pollOnce();

    expect(h.smtp.attempts).toBe(2);
    expect(h.smtp.mails).toHaveLength(1);
    const mail = h.smtp.mails[0]!;
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(mail.subject).toBe(`[Tierwise] Daily digest of ${yesterday}: 3 events`);
    expect(mail.messageId).toBe(`<digest.${channel}.${new Date().toISOString().slice(0, 10)}@tierwise.notifier>`);
    for (const volume of ['dddd1001', 'dddd1002', 'dddd1003']) expect(mail.text).toContain(`volume ${volume}`);
    expect(mail.text).not.toContain('dddd1004');
    expect(mail.raw).toMatch(/^Content-Type: multipart\/alternative;/m);
    expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect((await h.deliveries(tenant)).map((d) => [d.status, d.attempts])).toEqual([
      ['sent', 2],
      ['sent', 2],
      ['sent', 2],
      ['held', 0],
    ]);
  });

  it('sends a weekly digest after Monday midnight in the channel time zone, labelled with the week that ended', async () => {
    const tenant = await h.createTenant('weekly');
    const timeZone = 'Pacific/Auckland';
    const channel = await h.addChannel(tenant, { kind: 'email', target: 'weekly@example.com', digest: 'weekly' });
    await h.tenants.owner.query('UPDATE notification_channels SET digest_timezone = $2 WHERE id = $1', [channel, timeZone]);
    await h.recommend(tenant, 'eeee2001');
    const notifier = h.notifier(apiUrl);
    await notifier.pollOnce();
    expect(h.smtp.attempts).toBe(0); // this week's event waits

    await h.tenants.owner.query(`UPDATE deliveries SET created_at = created_at - interval '8 days' WHERE tenant_id = $1`, [tenant]);
    await notifier.pollOnce();
    expect(h.smtp.mails).toHaveLength(1);
    // The Monday that began last week, in Auckland: today's local date, back to Monday, minus 7 days.
    const today = new Date(`${new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date())}T00:00:00Z`);
    const lastMonday = new Date(today.getTime() - (((today.getUTCDay() + 6) % 7) + 7) * 86_400_000).toISOString().slice(0, 10);
    expect(h.smtp.mails[0]!.subject).toBe(`[Tierwise] Weekly digest of ${lastMonday}: 1 event`);
  });
});
