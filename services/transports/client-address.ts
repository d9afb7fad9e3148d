/**
 * Who the client is, for rate limits and logs. A forwarded address (X-Forwarded-For) is believed only
 * when the peer that sent it is one of the configured proxies (TRUSTED_PROXIES, a CIDR list), hop by
 * hop from the right, as proxy-addr walks it; from any other peer the header is ignored, so no client
 * picks its own key. An IPv6 client is keyed by its /64: one subscriber's allocation is one client.
 */
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

export type TrustPolicy = (address: string, hop: number) => boolean;

/** The trust function of a CIDR list (also proxy-addr's names: loopback, linklocal, uniquelocal); throws on a bad entry. */
export function trustedProxies(cidrs: readonly string[]): TrustPolicy {
  return proxyaddr.compile([...cidrs]);
}

/** The client's address: the peer's, or the nearest untrusted one in X-Forwarded-For when the peer is a trusted proxy. */
export function clientAddress(req: IncomingMessage, trust: TrustPolicy): string {
  return canonical(proxyaddr(req, trust));
}

/** IPv4-mapped IPv6 (::ffff:192.0.2.1) as the IPv4 address it is; anything unparseable unchanged. */
function canonical(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  return ipaddr.process(address).toString();
}

/** The rate-limit key of an address: IPv4 whole, IPv6 by its /64 prefix (`2001:db8:0:1::/64`). */
export function clientKeyOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/64`);
  return `${prefix.toString()}/64`;
}
