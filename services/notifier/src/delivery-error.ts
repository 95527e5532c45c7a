/**
 * A failed send. `permanent` errors (Slack 4xx other than 429, SMTP 5xx) go to the dead letter
 * at once; others are retried with backoff. `retryAfterSeconds` is the receiver's Retry-After.
 */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';

  constructor(
    message: string,
    readonly permanent: boolean,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
