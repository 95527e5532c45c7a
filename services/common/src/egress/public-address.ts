import ipaddr from 'ipaddr.js';

/**
 * Addresses of cloud metadata and host services that ipaddr.js counts as public unicast
 * (169.254.169.254, fd00:ec2::254 and 100.100.100.200 are link-local, unique-local and CGNAT
 * already), and the deprecated IPv4-compatible IPv6 block (RFC 4291 §2.5.5.1) that can carry
 * any IPv4 address.
 */
const ALSO_REFUSED: Record<string, Array<ReturnType<typeof ipaddr.parseCIDR>>> = {
  cloudMetadata: [ipaddr.parseCIDR('168.63.129.16/32')], // Azure WireServer / IMDS proxy
  ipv4Compatible: [ipaddr.parseCIDR('::/96')],
};

/**
 * The special-purpose range an IP address is in, when a tenant-given URL must not reach it.
 * ipaddr.js classifies it (IPv4: unspecified, broadcast, multicast, linkLocal, loopback,
 * carrierGradeNat, private, reserved, as112, amt; IPv6: unspecified, linkLocal, multicast,
 * loopback, uniqueLocal, 6to4, teredo, rfc6052 (NAT64), reserved, …); an IPv4-mapped IPv6
 * address (::ffff:a.b.c.d) is judged as its IPv4 address.
 *
 * @param address an IPv4 or IPv6 address (no brackets).
 * @returns the range name (e.g. `loopback`, `private`, `linkLocal`, `cloudMetadata`), `invalid`
 *   for a string that is no address, or undefined for a public unicast address.
 */
export function refusedAddressRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid';
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== 'unicast') return range;
  const extra = ipaddr.subnetMatch(parsed, ALSO_REFUSED, 'unicast');
  return extra === 'unicast' ? undefined : extra;
}

/** Whether `address` is an IPv4 or IPv6 loopback address (127.0.0.0/8, ::1, ::ffff:127.0.0.0/104). */
export function isLoopbackAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}
