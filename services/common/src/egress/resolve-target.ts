import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { EgressError, egressRefused } from './egress-error.js';
import { bareHost, checkEgressUrl, type EgressPolicy } from './egress-policy.js';
import { refusedAddressRange } from './public-address.js';

/** A resolved address as node:dns gives it (family 4 or 6). */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has; node:dns `lookup` (getaddrinfo) by default. */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

const systemLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** A tenant-given URL that passed the egress guard, and the one address a request to it must connect to. */
export interface EgressTarget extends ResolvedAddress {
  url: URL;
}

/**
 * The egress guard: checks a tenant-given URL's form ({@link checkEgressUrl}), resolves its host
 * once and checks every address it resolves to ({@link refusedAddressRange}: loopback, private,
 * link-local, CGNAT, unspecified, multicast, reserved, cloud metadata, IPv4-mapped IPv6 as IPv4).
 * The request must then connect to the returned address ({@link egressPost}), never resolve
 * again, so a DNS answer changed in between (rebinding) cannot move it. A host that is an IP
 * literal is not checked: it passed the form check only by being the trusted origin's own host,
 * which the operator wrote.
 *
 * @param lookup the resolver (tests inject one).
 * @throws EgressError: the refusals of checkEgressUrl, `egress_refused:private_address` when any
 *   address is not public unicast, `dns_failure` (transient) when the host does not resolve.
 */
export async function resolveEgressTarget(value: string, policy: EgressPolicy, lookup: HostLookup = systemLookup): Promise<EgressTarget> {
  const url = checkEgressUrl(value, policy);
  const host = bareHost(url);
  const literal = isIP(host);
  if (literal !== 0) return { url, address: host, family: literal };
  let addresses: ResolvedAddress[];
  try {
    addresses = await lookup(host);
  } catch {
    throw new EgressError('dns_failure', false, `${host} does not resolve`);
  }
  if (addresses.length === 0) throw new EgressError('dns_failure', false, `${host} has no address`);
  for (const { address } of addresses) {
    const range = refusedAddressRange(address);
    if (range) throw egressRefused('private_address', `${host} resolves to ${address} (${range}), not a public address`);
  }
  return { url, ...addresses[0]! };
}
