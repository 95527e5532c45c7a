import { egressRefused } from './egress-error.js';
import { isLoopbackAddress } from './public-address.js';

/** Where requests to tenant-given URLs of one kind may go: one origin the operator trusts. */
export interface EgressPolicy {
  /** scheme://host[:port] as WHATWG URL serialises it, e.g. https://hooks.slack.com. */
  readonly origin: string;
}

/** A URL host without the brackets of an IPv6 literal. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Why `value` cannot be a trusted origin (an operator setting such as
 * TIERWISE_SLACK_WEBHOOK_ORIGIN), or undefined when it can: an https origin with no path,
 * query, fragment or userinfo; plain http only on a loopback IP literal (a local receiver of the
 * local stack or a test).
 */
export function trustedOriginProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return 'must be a URL such as https://hooks.slack.com';
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https:// origin';
  if (url.href !== `${url.origin}/`) return 'must be an origin only (scheme://host[:port]): no path, query, fragment or user';
  if (url.protocol === 'http:' && !isLoopbackAddress(bareHost(url))) return 'must use https (plain http only on a loopback IP such as http://127.0.0.1:9000)';
  return undefined;
}

/**
 * The policy allowing one trusted origin.
 * @throws TypeError naming the problem when `origin` is not one (see {@link trustedOriginProblem}).
 */
export function egressPolicy(origin: string): EgressPolicy {
  const problem = trustedOriginProblem(origin);
  if (problem) throw new TypeError(`egress origin ${origin} ${problem}`);
  return { origin: new URL(origin).origin };
}

/**
 * Checks the form of a tenant-given URL against a policy, without any network access: it must
 * parse, carry no user name or password, use https (or the trusted origin's scheme) and be on
 * the trusted origin exactly (host and port, after WHATWG normalisation: `https://2130706433/`
 * is `https://127.0.0.1/`). The addresses its host resolves to are checked at send time
 * ({@link resolveEgressTarget}).
 *
 * @returns the parsed URL.
 * @throws EgressError `egress_refused:invalid_url | userinfo | not_https | host_not_allowed`.
 */
export function checkEgressUrl(value: string, policy: EgressPolicy): URL {
  if (!URL.canParse(value)) throw egressRefused('invalid_url', 'the URL does not parse');
  const url = new URL(value);
  const trusted = new URL(policy.origin);
  if (url.username !== '' || url.password !== '') throw egressRefused('userinfo', 'the URL must not contain a user name or password');
  if (url.protocol !== 'https:' && url.protocol !== trusted.protocol) throw egressRefused('not_https', `the URL must use https (${policy.origin}/…)`);
  if (url.origin !== trusted.origin) throw egressRefused('host_not_allowed', `the URL must be on ${policy.origin}, the only origin this deployment trusts for it`);
  return url;
}
