import { describe, expect, it } from 'vitest';
import { type ChannelEvent, parseEvent } from '../src/event.js';
import { renderEmail } from '../src/render/email.js';
import { noticeOf } from '../src/render/format.js';
import { renderSlack } from '../src/render/slack.js';
import { slackPayloadProblems } from './support/slack-receiver.js';

const WEB = 'https://portal.example.com/';

function recommendation(explanation: string, volumeId = 'ab12cd34'): ChannelEvent {
  const event = parseEvent('recommendation.created', 'info', {
    volume_id: volumeId, tier_bytes: 3 * 2 ** 40, media: 'ram', policy: 'write-through',
    predicted_hit_ratio: 0.5, achievable_hit_ratio: 0.6, target_hit_ratio: 0.9, explanation, created_at: '2026-11-21T00:00:00Z',
  });
  if (event.kind === 'account.email') throw new Error('a recommendation parsed as an account e-mail');
  return event;
}

describe('rendering', () => {
  it("keeps Slack's Block Kit limits with an oversized explanation and volume id", () => {
    const event = recommendation('x'.repeat(10_000), 'f'.repeat(64));
    const message = renderSlack(noticeOf(event, WEB));
    expect(slackPayloadProblems(message)).toEqual([]);
    const section = message.blocks[1] as { text: { text: string } };
    expect(section.text.text).toHaveLength(3000);
    expect(section.text.text.endsWith('…')).toBe(true);

    const huge = renderSlack({
      title: 'T'.repeat(500),
      summary: '',
      facts: Array.from({ length: 12 }, (_, i) => [`fact ${i}`, 'v'.repeat(3000)] as [string, string]),
      links: [{ id: 'open', label: 'L'.repeat(100), url: `${WEB}volumes/x` }],
    });
    expect(slackPayloadProblems(huge)).toEqual([]);
    expect((huge.blocks[0] as { text: { text: string } }).text.text).toHaveLength(150);
  });

  it('escapes Slack control sequences in every mrkdwn string', () => {
    const event = recommendation('<!channel> see <https://evil.example|the portal> & more');
    const message = renderSlack(noticeOf(event, WEB));
    const section = message.blocks[1] as { text: { text: string }; fields: Array<{ text: string }> };
    const mrkdwn = [message.text, section.text.text, ...section.fields.map((f) => f.text)];
    for (const text of mrkdwn) expect(text).not.toMatch(/[<>]/);
    expect(section.text.text).toContain('&lt;!channel&gt; see &lt;https://evil.example|the portal&gt; &amp; more');
  });

  it('escapes HTML in the e-mail and keeps the text part plain', () => {
    const event = recommendation('<script>alert(1)</script> & more');
    const mail = renderEmail(noticeOf(event, WEB), 'https://api.example.com/v1/notifications/unsubscribe?token=a.b.c');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; more');
    expect(mail.html).not.toContain('<script>');
    expect(mail.text).toContain('<script>alert(1)</script> & more');
    expect(mail.subject).toBe('[Tierwise] New recommendation for volume ab12cd34: 3 TiB RAM write-through');
  });

  it('says which device errors a device_errors alert counted, also for events written without the breakdown', () => {
    const alert = (details: unknown) => {
      const event = parseEvent('alert.firing', 'warning', {
        incident_id: 7, rule_id: '0b7e6a52-3f41-4a5e-9d8c-2f1e0a9b8c7d', rule_name: 'devices', rule_kind: 'device_errors', subject: 'e1e1e1e1',
        bin_upper_bytes: null, value: 1, threshold: 0, ...(details === undefined ? {} : { details }), opened_at: '2026-11-21T00:00:00Z', resolved_at: null,
      });
      if (event.kind === 'account.email') throw new Error('an alert parsed as an account e-mail');
      return noticeOf(event, WEB);
    };
    const tier = alert({ destage_errors: 0, tier_errors: 1, window_seconds: 60 });
    expect(tier.title).toBe('Warning: Volume e1e1e1e1: 1 tier error in the last 60 s');
    expect(tier.summary).toBe('Alert rule "devices" fired at 2026-11-21T00:00:00Z. The cache tier device failed and was disabled.');
    expect(tier.facts).toContainEqual(['Threshold', '0 errors']);
    expect(alert(undefined).title).toBe('Warning: Volume e1e1e1e1: 1 device error');
    expect(alert(null).summary).toBe('Alert rule "devices" fired at 2026-11-21T00:00:00Z.');
  });

  it('refuses unknown kinds and malformed payloads with a reason', () => {
    expect(() => parseEvent('volume.deleted', 'info', {})).toThrow('unknown event kind "volume.deleted"');
    expect(() => parseEvent('account.email', 'info', { to: 'nobody', subject: 's', text: 't', html: 'h' })).toThrow(/malformed account.email payload: to:/);
    expect(() => parseEvent('recommendation.updated', 'info', { volume_id: 'x' })).toThrow(/malformed recommendation.updated payload: tier_bytes/);
  });
});
