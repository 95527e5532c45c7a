import { ALERT_KINDS } from '@tierwise/common';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AlertEvaluator } from '../src/alerts/alert-evaluator.js';
import { Harness } from './support/harness.js';

/**
 * Alert rules evaluated over the metrics tables of the real database: each incident writes one
 * alert.firing event however often it is evaluated, and one alert.resolved when it ends.
 */
const h = new Harness();

beforeAll(() => h.start());
afterEach(() => h.afterEach());
afterAll(() => h.stop());

async function rule(tenantId: string, fields: Record<string, unknown>): Promise<string> {
  const columns = Object.keys(fields);
  const { rows } = await h.tenants.owner.query<{ id: string }>(
    `INSERT INTO alert_rules (tenant_id, ${columns.join(', ')}) VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING id`,
    [tenantId, ...Object.values(fields)],
  );
  return rows[0]!.id;
}

/** One 10-second interval of volume_metrics_10s, `secondsAgo` before now, with these cache counters (4 KiB blocks). */
async function interval(tenantId: string, volumeId: string, secondsAgo: number, hits: number, misses: number): Promise<void> {
  await h.tenants.owner.query(
    `INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds, read_ops, write_ops, read_bytes, write_bytes,
       cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes)
     VALUES ($1, $2, date_trunc('second', now()) - make_interval(secs => $3), 10, $4::bigint + $5::bigint, 0, 4096 * ($4::bigint + $5::bigint), 0, $4, $5, $4, $5, 0, 0, 1073741824)`,
    [tenantId, volumeId, secondsAgo, hits, misses],
  );
}

/**
 * The cache health of one 10-second interval of volume_metrics_10s, `secondsAgo` before now: the
 * interval's row with no I/O, or its health columns if {@link interval} wrote it.
 */
async function health(
  tenantId: string,
  volumeId: string,
  secondsAgo: number,
  row: { mode?: string; dirty?: number; latency?: Record<string, [number, number]>; destageErrors?: number; tierErrors?: number },
): Promise<void> {
  const latency = Object.entries(row.latency ?? {});
  await h.tenants.owner.query(
    `INSERT INTO volume_metrics_10s (tenant_id, volume_id, interval_start, interval_seconds, read_ops, write_ops, read_bytes, write_bytes,
       cache_hits, cache_misses, read_cache_hits, read_cache_misses, evicted_bytes, occupancy_bytes, capacity_bytes,
       configured_mode, effective_mode, dirty_bytes, latency_us_sum, latency_ops, destage_errors, tier_errors)
     VALUES ($1, $2, date_trunc('second', now()) - make_interval(secs => $3), 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1073741824,
       'write-back', $4, $5, $6, $7, $8, $9)
     ON CONFLICT (tenant_id, volume_id, interval_start) DO UPDATE SET configured_mode = EXCLUDED.configured_mode,
       effective_mode = EXCLUDED.effective_mode, dirty_bytes = EXCLUDED.dirty_bytes, latency_us_sum = EXCLUDED.latency_us_sum,
       latency_ops = EXCLUDED.latency_ops, destage_errors = EXCLUDED.destage_errors, tier_errors = EXCLUDED.tier_errors`,
    [tenantId, volumeId, secondsAgo, row.mode ?? 'write-back', row.dirty ?? 0,
      Object.fromEntries(latency.map(([bin, [sum]]) => [bin, sum])), Object.fromEntries(latency.map(([bin, [, ops]]) => [bin, ops])),
      row.destageErrors ?? 0, row.tierErrors ?? 0],
  );
}

async function events(tenantId: string): Promise<Array<{ event_kind: string; severity: string; rule_kind: string; subject: string; value: number }>> {
  const { rows } = await h.tenants.owner.query(
    `SELECT event_kind, severity, payload->>'rule_kind' AS rule_kind, payload->>'subject' AS subject, (payload->>'value')::float8 AS value
       FROM outbox WHERE tenant_id = $1 AND event_kind LIKE 'alert.%' ORDER BY id`,
    [tenantId],
  );
  return rows;
}

describe('alert rules', () => {
  it('has the kinds the database accepts (alert_rules_kind_check), in order', async () => {
    const { rows } = await h.tenants.owner.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'alert_rules'::regclass AND conname = 'alert_rules_kind_check'`,
    );
    expect([...rows[0]!.def.matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1])).toEqual([...ALERT_KINDS]);
  });

  it('fires a hit ratio drop once per incident, resolves it once, and delivers both', async () => {
    const tenant = await h.createTenant('hit-drop');
    await h.addChannel(tenant, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/alerts` }, { event_kinds: ['alert.firing', 'alert.resolved'] });
    await rule(tenant, { name: 'hit ratio falls', kind: 'hit_ratio_drop', threshold: 0.2, window_seconds: 60, severity: 'critical' });
    // The hour before the last minute: 90 % hits; the last minute: 40 % hits (a drop of 50 points).
    for (const ago of [600, 1200, 1800]) await interval(tenant, 'a1a1a1a1', ago, 90, 10);
    await interval(tenant, 'a1a1a1a1', 20, 40, 60);
    // A steady volume does not fire.
    for (const ago of [600, 20]) await interval(tenant, 'b2b2b2b2', ago, 80, 20);
    const evaluator = new AlertEvaluator(h.jobs, 0);

    expect(await evaluator.evaluate()).toMatchObject({ opened: 1 });
    expect(await evaluator.evaluate()).toMatchObject({ opened: 0, resolved: 0 }); // still true: no second event
    expect(await events(tenant)).toEqual([{ event_kind: 'alert.firing', severity: 'critical', rule_kind: 'hit_ratio_drop', subject: 'a1a1a1a1', value: expect.closeTo(0.5, 6) }]);

    // The hit ratio recovers: the last minute now holds 95 % hits in total.
    await interval(tenant, 'a1a1a1a1', 10, 1000, 0);
    expect(await evaluator.evaluate()).toMatchObject({ opened: 0, resolved: 1 });
    expect(await evaluator.evaluate()).toMatchObject({ opened: 0, resolved: 0 });
    expect((await events(tenant)).map((e) => e.event_kind)).toEqual(['alert.firing', 'alert.resolved']);

    await h.drain(h.notifier(), [tenant]);
    expect(h.slack.accepted.map((r) => (r.body as { text: string }).text)).toEqual([
      'Critical: Hit ratio of volume a1a1a1a1 dropped',
      'Resolved: Hit ratio of volume a1a1a1a1 dropped',
    ]);
    const { rows } = await h.tenants.owner.query('SELECT subject, resolved_at IS NOT NULL AS resolved FROM alert_incidents WHERE tenant_id = $1', [tenant]);
    expect(rows).toEqual([{ subject: 'a1a1a1a1', resolved: true }]);
  });

  it('fires agent silent, latency, destage backlog and write-back fallback rules on their subjects only', async () => {
    const tenant = await h.createTenant('alert-kinds');
    await h.tenants.owner.query(
      `INSERT INTO hosts (tenant_id, host_id, last_seen) VALUES ($1, 'c0ffee01', now() - interval '20 minutes'), ($1, 'c0ffee02', now())`,
      [tenant],
    );
    await rule(tenant, { name: 'agent silent', kind: 'agent_silent', threshold: 600 });
    await rule(tenant, { name: '64 KiB latency', kind: 'latency', bin_upper_bytes: 65_536, threshold: 5000, window_seconds: 60 });
    await rule(tenant, { name: 'destage backlog', kind: 'destage_backlog', threshold: 2 ** 30 });
    await rule(tenant, { name: 'fallback', kind: 'write_back_fallback', threshold: 0, severity: 'critical' });
    // Volume d1: 64 KiB I/Os at 8 ms mean (4 KiB ones are fast), 3 GiB dirty, fell back to write-through.
    await health(tenant, 'd1d1d1d1', 30, { latency: { '65536': [80_000, 10], '4096': [1_000, 10] }, dirty: 3 * 2 ** 30, mode: 'write-through' });
    // Volume d2: fast, little dirty data, write-back as configured; an old slow interval outside the window.
    await health(tenant, 'd2d2d2d2', 30, { latency: { '65536': [10_000, 10] }, dirty: 2 ** 20 });
    await health(tenant, 'd2d2d2d2', 600, { latency: { '65536': [900_000, 10] } });

    const result = await new AlertEvaluator(h.jobs, 0).evaluate();
    expect(result).toEqual({ opened: 4, resolved: 0 });
    const fired = (await events(tenant)).map((e) => [e.rule_kind, e.subject, e.severity, Math.round(e.value)]).sort();
    expect(fired).toEqual([
      ['agent_silent', 'c0ffee01', 'warning', expect.any(Number)],
      ['destage_backlog', 'd1d1d1d1', 'warning', 3 * 2 ** 30],
      ['latency', 'd1d1d1d1', 'warning', 8000],
      ['write_back_fallback', 'd1d1d1d1', 'critical', 1],
    ]);
    expect(fired[0]![3]).toBeGreaterThanOrEqual(1200);
  });

  it('fires device errors on the errors of the window, says what they mean, and resolves once the window has none', async () => {
    const tenant = await h.createTenant('device-errors');
    await h.addChannel(tenant, { kind: 'slack-webhook', target: `${h.slackUrl}/hooks/devices` }, { event_kinds: ['alert.firing', 'alert.resolved'] });
    await h.addChannel(tenant, { kind: 'email', target: 'ops@example.com' }, { event_kinds: ['alert.firing'] });
    await rule(tenant, { name: 'disk <errors> & co', kind: 'device_errors', threshold: 1, window_seconds: 300, severity: 'critical' });
    // Volume e1: 3 destage errors over two intervals and 1 tier error in the window; e2: errors
    // only before the window; e3: 1 error, not more than the threshold.
    await health(tenant, 'e1e1e1e1', 50, { destageErrors: 2 });
    await health(tenant, 'e1e1e1e1', 40, { destageErrors: 1, tierErrors: 1 });
    await health(tenant, 'e2e2e2e2', 30, {});
    await health(tenant, 'e2e2e2e2', 900, { tierErrors: 5 });
    await health(tenant, 'e3e3e3e3', 30, { destageErrors: 1 });
    const evaluator = new AlertEvaluator(h.jobs, 0);

    expect(await evaluator.evaluate()).toEqual({ opened: 1, resolved: 0 });
    expect(await evaluator.evaluate()).toEqual({ opened: 0, resolved: 0 });
    expect(await events(tenant)).toEqual([{ event_kind: 'alert.firing', severity: 'critical', rule_kind: 'device_errors', subject: 'e1e1e1e1', value: 4 }]);

    // Five minutes on: the errored intervals left the window.
    await h.tenants.owner.query(`UPDATE volume_metrics_10s SET interval_start = interval_start - interval '5 minutes' WHERE tenant_id = $1`, [tenant]);
    await health(tenant, 'e1e1e1e1', 10, {});
    expect(await evaluator.evaluate()).toEqual({ opened: 0, resolved: 1 });
    expect((await events(tenant)).map((e) => e.event_kind)).toEqual(['alert.firing', 'alert.resolved']);

    await h.drain(h.notifier(), [tenant]);
    const title = 'Volume e1e1e1e1: 3 destage errors and 1 tier error in the last 5 min';
    expect(h.slack.accepted.map((r) => (r.body as { text: string }).text)).toEqual([`Critical: ${title}`, `Resolved: ${title}`]);
    const mail = h.smtp.mails[0]!;
    expect(mail.subject).toBe(`[Tierwise] Critical: ${title}`);
    expect(mail.text).toContain('Alert rule "disk <errors> & co" fired at ');
    expect(mail.text).toContain(
      'The datastore refused destage writes (write-back keeps the data and retries); the cache tier device failed and was disabled.',
    );
    expect(mail.html).toContain('Alert rule &quot;disk &lt;errors&gt; &amp; co&quot;');
    expect(mail.html).not.toContain('<errors>');
  });
});
