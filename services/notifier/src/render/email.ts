import type { Notice } from './format.js';

/** A rendered email: subject line, plain-text body and HTML body (sent as multipart/alternative). */
export interface EmailContent {
  subject: string;
  text: string;
  html: string;
  /**
   * The one-click unsubscribe URL (List-Unsubscribe, RFC 2369, with List-Unsubscribe-Post,
   * RFC 8058); absent for account e-mails, which a recipient cannot unsubscribe from.
   */
  unsubscribeUrl?: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

function noticeText(notice: Notice): string[] {
  return [
    notice.title,
    '',
    ...notice.facts.map(([label, value]) => `${label}: ${value}`),
    '',
    notice.summary,
    '',
    ...notice.links.map((link) => `${link.label}: ${link.url}`),
  ];
}

function noticeHtml(notice: Notice, heading: 'h1' | 'h2'): string[] {
  return [
    `<${heading}>${escapeHtml(notice.title)}</${heading}>`,
    '<table>',
    ...notice.facts.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`),
    '</table>',
    `<p>${escapeHtml(notice.summary)}</p>`,
    `<p>${notice.links.map((link) => `<a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a>`).join(' · ')}</p>`,
  ];
}

function footer(unsubscribeUrl: string): { text: string[]; html: string[] } {
  return {
    text: ['', '--', `You receive this because your address is a Tierwise notification channel. Unsubscribe: ${unsubscribeUrl}`],
    html: [`<hr><p style="font-size:small">You receive this because your address is a Tierwise notification channel. <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>`],
  };
}

/**
 * The email of one event for one recipient.
 *
 * @param notice what the event shows (render/format.ts noticeOf).
 * @param unsubscribeUrl the recipient's signed one-click unsubscribe URL.
 */
export function renderEmail(notice: Notice, unsubscribeUrl: string): EmailContent {
  const end = footer(unsubscribeUrl);
  return {
    subject: `[Tierwise] ${notice.title}`,
    text: [...noticeText(notice), ...end.text].join('\n'),
    html: ['<!doctype html><html><body>', ...noticeHtml(notice, 'h1'), ...end.html, '</body></html>'].join('\n'),
    unsubscribeUrl,
  };
}

/**
 * The digest email of the events a recipient collected over one period, oldest first.
 *
 * @param notices the events, oldest first (≥ 1).
 * @param period 'daily' or 'weekly'.
 * @param periodLabel the period's first day as YYYY-MM-DD in the channel's time zone.
 * @param unsubscribeUrl the recipient's signed one-click unsubscribe URL.
 */
export function renderDigest(notices: Notice[], period: 'daily' | 'weekly', periodLabel: string, unsubscribeUrl: string): EmailContent {
  const title = `${period === 'daily' ? 'Daily' : 'Weekly'} digest of ${periodLabel}: ${notices.length} event${notices.length === 1 ? '' : 's'}`;
  const end = footer(unsubscribeUrl);
  return {
    subject: `[Tierwise] ${title}`,
    text: [title, '', ...notices.flatMap((notice) => [...noticeText(notice), '', '']), ...end.text].join('\n'),
    html: ['<!doctype html><html><body>', `<h1>${escapeHtml(title)}</h1>`, ...notices.flatMap((notice) => noticeHtml(notice, 'h2')), ...end.html, '</body></html>'].join('\n'),
    unsubscribeUrl,
  };
}
