import dns from 'node:dns/promises';
import net from 'node:net';

/**
 * The SSRF guard: the server posts to a push endpoint a browser handed it, so an endpoint must be
 * https on a host whose every address is on the public internet. Checked at subscribe and again
 * right before each send, and the send connects to the very address checked (push/send.ts), so
 * a DNS answer changed in between (rebinding) cannot point it inside.
 */

/**
 * Ranges a push may never reach: loopback, private, link-local, CGNAT, unspecified, multicast,
 * reserved, documentation. BlockList judges an IPv4-mapped IPv6 address (`::ffff:7f00:1`, any
 * notation) by its IPv4; the IPv6 ranges that wrap an IPv4 otherwise are refused whole.
 */
const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(addr, prefix, 'ipv4');
for (const [addr, prefix] of [
  // IPv4-compatible (`::7f00:1`), with the unspecified and loopback addresses inside it.
  ['::', 96],
  // IPv4-translated (`::ffff:0:7f00:1`), SIIT.
  ['::ffff:0:0:0', 96],
  ['100::', 64],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  // NAT64, well-known and local-use prefixes: the IPv4 inside is reached through a gateway.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  // Teredo and 6to4 carry an IPv4 in the address; neither is where a push service lives.
  ['2001::', 32],
  ['2002::', 16],
  ['2001:db8::', 32],
] as const)
  blocked.addSubnet(addr, prefix, 'ipv6');

/** Whether `address` (an IP literal) is a public one. IPv4-mapped IPv6 is judged as its IPv4. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (!family) return false;
  return !blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Where a send connects: the endpoint and the one address it was checked at. */
export interface ResolvedEndpoint {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the endpoint and checks it; undefined when refused. With `allowPrivate` (tests only,
 * PUSH_ALLOW_PRIVATE_ENDPOINTS) http:// and private addresses pass, so a local push service works.
 */
export async function resolveEndpoint(endpoint: string, allowPrivate: boolean): Promise<ResolvedEndpoint | undefined> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return undefined;
  if (url.username || url.password) return undefined;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  try {
    addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.lookup(host, { all: true, verbatim: true });
  } catch {
    return undefined;
  }
  if (!addresses.length) return undefined;
  // Every address, not just the first: the connection could be made to any of them.
  if (!allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) return undefined;
  const [first] = addresses;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
