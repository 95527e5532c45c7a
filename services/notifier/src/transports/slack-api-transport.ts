import { DeliveryError } from '../delivery-error.js';

/** How long one Web API call may take, in milliseconds. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * chat.postMessage errors worth retrying (https://api.slack.com/methods/chat.postMessage#errors):
 * Slack's own failures. Every other error (channel_not_found, not_in_channel, invalid_auth,
 * token_revoked, account_inactive, missing_scope, is_archived, invalid_blocks, msg_too_long, …)
 * needs a person to change the channel's settings, so the delivery goes to the dead letter.
 */
const TRANSIENT_ERRORS = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout', 'ratelimited']);

/** A Slack message: fallback text and Block Kit blocks (render/slack.ts). */
export interface SlackMessage {
  text: string;
  blocks: Array<Record<string, unknown>>;
}

/**
 * Posts a message with the Web API method chat.postMessage
 * (https://api.slack.com/methods/chat.postMessage): `POST <apiUrl>/chat.postMessage`,
 * `Authorization: Bearer <bot token>`, JSON `{channel, text, blocks}`. Slack answers HTTP 200
 * `{"ok":true,…}` or `{"ok":false,"error":"<code>"}`, and HTTP 429 with Retry-After (seconds)
 * when rate limited (https://api.slack.com/apis/rate-limits: about one message per second per
 * channel).
 *
 * @param apiUrl the Web API base, https://slack.com/api (TIERWISE_SLACK_API_URL).
 * @param token the bot token (xoxb-…).
 * @param channel channel id (C…) or #name.
 * @throws DeliveryError: permanent for errors a retry cannot fix, transient for Slack's own
 *   failures and network errors, with retryAfterSeconds from a 429.
 */
export async function postSlackMessage(apiUrl: string, token: string, channel: string, message: SlackMessage): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${apiUrl.replace(/\/$/, '')}/chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${token}` },
      body: JSON.stringify({ channel, text: message.text, blocks: message.blocks, unfurl_links: false, unfurl_media: false }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new DeliveryError(`Slack chat.postMessage: ${(error as Error).message}`, false);
  }
  if (response.status === 429) {
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new DeliveryError('Slack chat.postMessage: ratelimited (HTTP 429)', false, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
  }
  const body = (await response.json().catch(() => undefined)) as { ok?: boolean; error?: string } | undefined;
  if (response.ok && body?.ok === true) return;
  if (!response.ok && body?.error === undefined) {
    throw new DeliveryError(`Slack chat.postMessage: HTTP ${response.status}`, response.status < 500);
  }
  const error = body?.error ?? 'malformed answer';
  throw new DeliveryError(`Slack chat.postMessage: ${error}`, !TRANSIENT_ERRORS.has(error));
}
