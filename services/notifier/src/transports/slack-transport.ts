import { EgressError, type EgressPolicy, egressPost, resolveEgressTarget } from '@tierwise/common';
import { DeliveryError } from '../delivery-error.js';
import type { SlackMessage } from './slack-api-transport.js';

/** How long one webhook POST may take to answer, in milliseconds. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * Posts a Block Kit body to a Slack incoming webhook
 * (https://api.slack.com/messaging/webhooks) through the egress guard: the tenant-given URL must
 * be on the policy's origin and its host must resolve to public addresses only; the request goes
 * to the checked address, follows no redirect and its answer's body is never read. Slack answers
 * 200 "ok" on success; errors (https://api.slack.com/messaging/webhooks#handling_errors) are
 * 400 invalid_payload / no_text, 403 action_prohibited, 404 no_service / channel_not_found, 410
 * channel_is_archived (permanent: retrying cannot help), 429 with Retry-After (rate limited, one
 * message per second per webhook) and 5xx (transient). A 3xx is no Slack answer: permanent.
 *
 * @param url the webhook URL (tenant-given).
 * @param body the JSON body (see renderSlack).
 * @param idempotencyKey sent as X-Tierwise-Idempotency-Key (Slack ignores it; proxies may not).
 * @param policy the trusted webhook origin (TIERWISE_SLACK_WEBHOOK_ORIGIN).
 * @throws DeliveryError whose message is a short code only, never the answer's body: `http_<status>`
 *   (with `retryAfterSeconds` from a 429's Retry-After), or the egress guard's code
 *   (`egress_refused:<reason>` permanent; `dns_failure`, `timeout`, `network_error` transient).
 */
export async function postSlackWebhook(url: string, body: SlackMessage, idempotencyKey: string, policy: EgressPolicy): Promise<void> {
  let status: number;
  let retryAfter: number;
  try {
    const answer = await egressPost(await resolveEgressTarget(url, policy), {
      headers: { 'content-type': 'application/json', 'x-tierwise-idempotency-key': idempotencyKey },
      body: JSON.stringify(body),
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    status = answer.status;
    retryAfter = Number(answer.headers['retry-after']);
  } catch (error) {
    if (error instanceof EgressError) throw new DeliveryError(error.code, error.permanent);
    throw error;
  }
  if (status >= 200 && status < 300) return;
  const code = `http_${status}`;
  if (status === 429) throw new DeliveryError(code, false, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
  throw new DeliveryError(code, status < 500);
}
