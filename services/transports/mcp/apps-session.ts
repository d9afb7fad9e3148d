/**
 * A 2025 host of widgets, known on every request of its session (docs/decisions.md, "The widgets"). The
 * 2025 eras declare client capabilities once, at `initialize`, and this endpoint is stateless: a client
 * whose `initialize` declares the MCP Apps extension is answered with an `Mcp-Session-Id` that carries
 * the declaration, which the client sends back on each request. Nothing is kept: any copy of the service
 * reads it, and a forged one only lists the app-only tool, which any client may call by name.
 */
import { randomUUID } from 'node:crypto';
import { supportsWidgets } from './client-support';
import { isObject, type RequestHeaders } from './plain-request';

/** The session ids of hosts of widgets begin with this; the rest is random (the spec asks ids to be unique). */
const APPS_SESSION_PREFIX = 'mcp-apps.';

/** Whether a message is a 2025 `initialize` whose client declares the MCP Apps extension with the widgets' MIME type. */
export function opensAppsSession(message: unknown): boolean {
  if (!isObject(message) || message.method !== 'initialize' || !isObject(message.params)) return false;
  return supportsWidgets(message.params.capabilities);
}

/** A new session id of a host of widgets. */
export function appsSessionId(): string {
  return `${APPS_SESSION_PREFIX}${randomUUID()}`;
}

/** Whether a 2025 request comes from a host of widgets: its session id says so. */
export function inAppsSession(headers: RequestHeaders | Headers): boolean {
  const id = headers instanceof Headers ? headers.get('mcp-session-id') : headers['mcp-session-id'];
  return typeof id === 'string' && id.startsWith(APPS_SESSION_PREFIX);
}
