/** How retries are spaced and when a delivery goes to the dead letter. */
export interface RetryPolicy {
  /** Attempts before a delivery is dead (the first send counts as attempt 1). */
  maxAttempts: number;
  /** Delay after the first failed attempt, in seconds. */
  baseDelaySeconds: number;
  /** Upper bound of any delay, in seconds (a longer Retry-After is still honoured). */
  maxDelaySeconds: number;
}

/** Default policy: 1 s, 2 s, 4 s, … capped at 15 min; dead after 8 attempts (~2 min of retries). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 8, baseDelaySeconds: 1, maxDelaySeconds: 900 };

/**
 * Seconds to wait before the next attempt after `attempts` failed ones: truncated binary
 * exponential backoff, `min(base × 2^(attempts−1), max)`, and never less than the receiver's
 * `Retry-After` (RFC 9110 §10.2.3; Slack sends it with HTTP 429, see
 * https://api.slack.com/apis/rate-limits).
 *
 * @param attempts failed attempts so far (≥ 1).
 * @param policy the retry policy.
 * @param retryAfterSeconds the receiver's Retry-After in seconds, when it sent one.
 * @returns the delay in seconds.
 * @throws RangeError when `attempts` is not a positive integer.
 */
export function retryDelaySeconds(attempts: number, policy: RetryPolicy, retryAfterSeconds?: number): number {
  if (!Number.isInteger(attempts) || attempts < 1) {
    throw new RangeError(`attempts must be a positive integer, got ${attempts}`);
  }
  const exponential = Math.min(policy.baseDelaySeconds * 2 ** (attempts - 1), policy.maxDelaySeconds);
  return Math.max(exponential, retryAfterSeconds ?? 0);
}
