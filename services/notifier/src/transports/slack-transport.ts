import { DeliveryError } from '../delivery-error.js';
import type { SlackMessage } from './slack-api-transport.js';

/** How long one webhook POST may take, in milliseconds. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Posts a Block Kit body to a Slack incoming webhook
 * (https://api.slack.com/messaging/webhooks). Slack answers 200 "ok" on success; errors
 * (https://api.slack.com/messaging/webhooks#handling_errors) are 400 invalid_payload /
 * no_text, 403 action_prohibited, 404 no_service / channel_not_found, 410 channel_is_archived
 * (permanent: retrying cannot help), 429 with Retry-After (rate limited, one message per second
 * per webhook) and 5xx (transient).
 *
 * @param url the webhook URL.
 * @param body the JSON body (see renderSlack).
 * @param idempotencyKey sent as X-Tierwise-Idempotency-Key (Slack ignores it; proxies may not).
 * @throws DeliveryError with `retryAfterSeconds` from a 429's Retry-After.
 */
export async function postSlackWebhook(url: string, body: SlackMessage, idempotencyKey: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tierwise-idempotency-key': idempotencyKey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new DeliveryError(`Slack webhook: ${(error as Error).message}`, false);
  }
  const answer = (await response.text().catch(() => '')).slice(0, 200);
  if (response.ok) {
    return;
  }
  const reason = `Slack webhook: HTTP ${response.status} ${answer}`.trim();
  if (response.status === 429) {
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new DeliveryError(reason, false, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
  }
  throw new DeliveryError(reason, response.status >= 400 && response.status < 500);
}
