/**
 * A request to a tenant-given URL that was refused or failed. `code` is short and safe to show
 * the tenant (it names no address and carries nothing the target answered):
 * - `egress_refused:<reason>` (permanent): invalid_url, userinfo, not_https, host_not_allowed,
 *   private_address;
 * - `dns_failure`, `timeout`, `network_error` (transient: a retry may succeed).
 * `message` says the same for a person (the api answers it to the tenant that gave the URL).
 */
export class EgressError extends Error {
  override readonly name = 'EgressError';

  constructor(
    readonly code: string,
    readonly permanent: boolean,
    message: string,
  ) {
    super(message);
  }
}

/** A permanent refusal: `egress_refused:<reason>`. */
export function egressRefused(reason: string, message: string): EgressError {
  return new EgressError(`egress_refused:${reason}`, true, message);
}
