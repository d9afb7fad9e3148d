/**
 * The admin port answers only a `Host` that names this machine (localhost, 127.0.0.0/8, ::1, any
 * port), an address (Prometheus's discovery and an orchestrator's probes scrape a copy by its address)
 * or a name the operator lists (ADMIN_ALLOWED_HOSTS): a page on an operator's laptop whose DNS name is
 * rebound to 127.0.0.1 sends its own name as `Host`, never an address, and is refused before anything runs.
 */
import { isIP } from 'node:net';
import type { Context, Next } from 'koa';
import { ApiError } from '../../kernel/errors';
import { isLoopbackHostname } from '../mcp/origin-guard';

/** The host name of a `Host` header value (`name:port`, `[v6]:port`), lower case, or null when it is not one. */
export function hostnameOf(hostHeader: string): string | null {
  // A user, a path or a query in `Host` is no host header at all.
  if (/[/@?#\\\s]/.test(hostHeader)) return null;
  try {
    return new URL(`http://${hostHeader}`).hostname.replace(/\.$/, '');
  } catch {
    return null;
  }
}

/** Whether `hostHeader` is one the admin port answers: a loopback name, an IP address, or one of `allowed` (host names, any port). */
export function adminHostAllowed(hostHeader: string | undefined, allowed: readonly string[]): boolean {
  const hostname = hostHeader ? hostnameOf(hostHeader) : null;
  if (hostname === null) return false;
  const address = hostname.replace(/^\[(.*)\]$/, '$1');
  return isLoopbackHostname(hostname) || isIP(address) !== 0 || allowed.some((name) => name.toLowerCase().replace(/\.$/, '') === hostname);
}

export function adminHostGuard(allowed: readonly string[]) {
  return async function guardAdminHost(ctx: Context, next: Next): Promise<void> {
    if (!adminHostAllowed(ctx.get('Host') || undefined, allowed)) {
      throw new ApiError('misdirected_request', 'This port answers loopback names, addresses and the names ADMIN_ALLOWED_HOSTS lists only.', 421);
    }
    await next();
  };
}
