/**
 * Where a watch may send its changes: an https URL whose host resolves only to public unicast
 * addresses, never a loopback, private, link-local or other special one (read with ipaddr.js after
 * DNS resolution), unless the operator lists the host in WATCH_WEBHOOK_ALLOW_HOSTS (then plain http
 * is accepted too: a receiver on the operator's own network). Checked at creation and again before
 * each delivery (a name may resolve elsewhere later); deliveries never follow redirects.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { badRequest } from '../kernel/errors';

const refuse = (why: string) => badRequest('invalid_parameters', `webhook_url ${why}; no watch was saved.`);

/** The range ipaddr.js names for an address (an IPv4-mapped IPv6 address is read as its IPv4). */
export function addressRange(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address().range();
  return parsed.range();
}

/** The host of a URL as DNS is asked for it (an IPv6 literal without its brackets). */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** How a host name is resolved: every address DNS gives for it. */
export type ResolveHost = (host: string) => Promise<Array<{ address: string }>>;

const resolveByDns: ResolveHost = (host) => lookup(host, { all: true, verbatim: true });

/** The URL, read and checked; throws the contract's 400 when a watch may not send to it (any address of its host refused refuses it). */
export async function checkWebhookUrl(raw: string, allowHosts: readonly string[], resolve: ResolveHost = resolveByDns): Promise<URL> {
  return (await vetWebhookUrl(raw, allowHosts, resolve)).url;
}

/**
 * The URL and the addresses it was checked at: a delivery connects to these and no other (DNS asked
 * again at connect time could answer a private address: a rebinding). Null for a host the operator
 * allows, which is resolved as usual.
 */
export async function vetWebhookUrl(
  raw: string,
  allowHosts: readonly string[],
  resolve: ResolveHost = resolveByDns,
): Promise<{ url: URL; addresses: string[] | null }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('is not a URL');
  }
  const host = hostOf(url);
  const allowed = allowHosts.includes(host);
  if (url.protocol !== 'https:' && !(allowed && url.protocol === 'http:')) throw refuse('must be https');
  if (url.username || url.password) throw refuse('may not carry credentials');
  if (allowed) return { url, addresses: null };
  let addresses: Array<{ address: string }>;
  try {
    addresses = ipaddr.isValid(host) ? [{ address: host }] : await resolve(host);
  } catch {
    throw refuse(`names a host that does not resolve (${host})`);
  }
  if (addresses.length === 0) throw refuse(`names a host that does not resolve (${host})`);
  for (const { address } of addresses) {
    const range = addressRange(address);
    if (range !== 'unicast') throw refuse(`resolves to a ${range} address (${address}), not a public one`);
  }
  return { url, addresses: addresses.map((a) => a.address) };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | Array<{ address: string; family: number }>, family?: number) => void;

/** A `dns.lookup` that answers only the checked addresses, whatever the name (what a delivery's connection is given). */
export function pinnedLookup(addresses: readonly string[]) {
  const answers = addresses.map((address) => ({ address, family: ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4 }));
  return (_host: string, options: { all?: boolean } | LookupCallback, callback?: LookupCallback): void => {
    const done = typeof options === 'function' ? options : callback!;
    const all = typeof options === 'object' && options.all === true;
    if (all) done(null, answers);
    else done(null, answers[0]!.address, answers[0]!.family);
  };
}
