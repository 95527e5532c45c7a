import type { RecommendationEvent } from '../event.js';
import { facts, headline, unsubscribeUrl, volumeUrl } from './format.js';

/** A rendered email: subject line, plain-text body and HTML body. */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
  /** The unsubscribe URL (also sent as the List-Unsubscribe header, RFC 2369). */
  unsubscribeUrl: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/**
 * Renders the email of one recommendation event for one channel.
 *
 * @param event the validated event.
 * @param channelId the email channel's id (for its unsubscribe link).
 * @param webUrl the portal's base URL (TIERWISE_WEB_URL).
 */
export function renderEmail(event: RecommendationEvent, channelId: string, webUrl: string): EmailContent {
  const link = volumeUrl(webUrl, event);
  const unsubscribe = unsubscribeUrl(webUrl, channelId);
  const rows = facts(event);
  const text = [
    `${headline(event)}.`,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    event.explanation,
    '',
    `Open in the portal: ${link}`,
    '',
    `Unsubscribe: ${unsubscribe}`,
  ].join('\n');
  const html = [
    '<!doctype html><html><body>',
    `<h1>${escapeHtml(headline(event))}</h1>`,
    '<table>',
    ...rows.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`),
    '</table>',
    `<p>${escapeHtml(event.explanation)}</p>`,
    `<p><a href="${escapeHtml(link)}">Open in the portal</a></p>`,
    `<p style="font-size:small"><a href="${escapeHtml(unsubscribe)}">Unsubscribe</a></p>`,
    '</body></html>',
  ].join('\n');
  return { subject: `[Tierwise] ${headline(event)}`, text, html, unsubscribeUrl: unsubscribe };
}
