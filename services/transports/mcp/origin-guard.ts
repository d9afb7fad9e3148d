/**
 * DNS-rebinding protection of the tool server (MCP 2025-11-25 and 2026-07-28, "Security Warning":
 * servers MUST validate Origin; bound to loopback, they SHOULD refuse a foreign Host). A refused
 * request is answered before anything reads it, so it changes nothing. Our rule runs first; the SDK's
 * middleware (below) runs after it.
 */
import { localhostAllowedHostnames, localhostAllowedOrigins, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A host name (no port) that reaches this machine only: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return LOOPBACK_NAMES.has(name) || name.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(name);
}

/** The host name of a `Host` header value (`name:port`, `[v6]:port`), or null when it is not one. */
function hostnameOf(hostHeader: string): string | null {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return null;
  }
}

function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

export interface OriginPolicy {
  /** Exact origins allowed besides the service's own and loopback ones; '*' allows every origin. */
  allowedOrigins: readonly string[];
  /** PUBLIC_BASE_URL: its origin is always allowed, and its host is a valid Host behind a local proxy. */
  publicBaseUrl: string;
  /** The address the service listens on (HOST). */
  listenHost: string;
}

export type GuardVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * Requests without `Origin` (server-side clients) pass; a browser origin passes when it is the
 * service's own, a loopback one, or listed. Listening on loopback, a `Host` that does not name this
 * machine (or the public base URL) is refused: that is what a rebound DNS name looks like.
 */
export function checkOriginAndHost(origin: string | undefined, host: string | undefined, policy: OriginPolicy): GuardVerdict {
  const own = new URL(policy.publicBaseUrl);
  if (isLoopbackHostname(policy.listenHost) && host !== undefined) {
    const hostname = hostnameOf(host);
    if (hostname === null || (!isLoopbackHostname(hostname) && hostname !== own.hostname)) {
      return { allowed: false, reason: 'Host not allowed: this server listens on a loopback address.' };
    }
  }
  if (origin === undefined) return { allowed: true };
  if (policy.allowedOrigins.includes('*')) return { allowed: true };
  const normalized = originOf(origin);
  if (normalized !== null) {
    if (normalized === own.origin || isLoopbackHostname(new URL(normalized).hostname)) return { allowed: true };
    if (policy.allowedOrigins.some((allowed) => originOf(allowed) === normalized)) return { allowed: true };
  }
  return { allowed: false, reason: 'Origin not allowed on this tool server (set MCP_ALLOWED_ORIGINS to allow a browser origin).' };
}

/**
 * The SDK's DNS-rebinding middleware (its Host and Origin validators), under our rule above: its Host
 * allowlist (loopback names and the public base URL's host) when listening on loopback, and its Origin
 * allowlist (loopback names, the public base URL's host and the listed origins' hosts; none with '*').
 * The SDK's Origin check is by host name on any scheme and port, looser than ours (an origin is its
 * scheme, host and port), so a request must pass both; its Host check knows loopback by name only (no
 * 127.0.0.0/8, no `*.localhost`), stricter than ours, and has the last word.
 */
export function sdkOriginAndHostCheck(policy: OriginPolicy): (origin: string | undefined, host: string | undefined) => GuardVerdict {
  const own = new URL(policy.publicBaseUrl).hostname;
  const hosts = isLoopbackHostname(policy.listenHost) ? [...localhostAllowedHostnames(), own] : null;
  const origins = policy.allowedOrigins.includes('*')
    ? null
    : [...localhostAllowedOrigins(), own, ...policy.allowedOrigins.flatMap((o) => (originOf(o) ? [new URL(o).hostname] : []))];
  return (origin, host) => {
    const hostVerdict = hosts ? validateHostHeader(host, hosts) : null;
    if (hostVerdict && !hostVerdict.ok) return { allowed: false, reason: `Host not allowed: ${hostVerdict.message}.` };
    const originVerdict = origins ? validateOriginHeader(origin, origins) : null;
    if (originVerdict && !originVerdict.ok) return { allowed: false, reason: `Origin not allowed: ${originVerdict.message}.` };
    return { allowed: true };
  };
}

/** Ours first (its reasons name the setting to change), then the SDK's. */
export function originAndHostGuard(policy: OriginPolicy): (origin: string | undefined, host: string | undefined) => GuardVerdict {
  const sdk = sdkOriginAndHostCheck(policy);
  return (origin, host) => {
    const ours = checkOriginAndHost(origin, host, policy);
    return ours.allowed ? sdk(origin, host) : ours;
  };
}
