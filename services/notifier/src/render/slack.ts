import type { Notice } from './format.js';

/**
 * Block Kit limits this renderer keeps (https://api.slack.com/reference/block-kit/blocks and
 * /block-kit/block-elements#button): header text ≤ 150 characters; section text ≤ 3000 and
 * ≤ 10 fields of ≤ 2000; button text ≤ 75, url ≤ 3000, action_id ≤ 255; top-level `text`
 * (the notification fallback) ≤ 4000 for chat.postMessage (longer is truncated by Slack).
 */
const LIMITS = { header: 150, sectionText: 3000, fields: 10, field: 2000, buttonText: 75, fallback: 4000 } as const;

/**
 * Slack's control characters in mrkdwn and the fallback `text` (https://api.slack.com/reference/surfaces/formatting#escaping):
 * `&`, `<` and `>` become entities, so no string from an agent or a tenant can form a mention
 * (`<!channel>`), a link (`<url|label>`) or a user reference.
 */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The Slack message of one event, for an incoming webhook or chat.postMessage: a header, a
 * section with the summary and the facts as fields, and an actions block with one button per
 * link (the first opens the event in the portal, TIERWISE_WEB_URL). `text` is the fallback
 * shown in notifications. Every mrkdwn string is escaped (escapeMrkdwn); plain_text is shown as is.
 */
export function renderSlack(notice: Notice): { text: string; blocks: Array<Record<string, unknown>> } {
  return {
    text: clip(escapeMrkdwn(notice.title), LIMITS.fallback),
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: clip(notice.title, LIMITS.header), emoji: false } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: clip(escapeMrkdwn(notice.summary || notice.title), LIMITS.sectionText) },
        fields: notice.facts.slice(0, LIMITS.fields).map(([label, value]) => ({
          type: 'mrkdwn',
          text: clip(`*${escapeMrkdwn(label)}*\n${escapeMrkdwn(value)}`, LIMITS.field),
        })),
      },
      {
        type: 'actions',
        elements: notice.links.map((link, index) => ({
          type: 'button',
          text: { type: 'plain_text', text: clip(link.label, LIMITS.buttonText) },
          url: link.url,
          action_id: link.id,
          ...(index === 0 ? { style: 'primary' } : {}),
        })),
      },
    ],
  };
}
