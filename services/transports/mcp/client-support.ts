/**
 * What a client says it supports. A 2026-07-28 request carries it in its `_meta` envelope
 * (`io.modelcontextprotocol/clientCapabilities`); a 2025 client declares it once, at `initialize`, and a
 * host of widgets is then given a session id that says so on each later request (./apps-session.ts),
 * the stateless endpoint keeping nothing of the handshake.
 */
import { WIDGET_EXTENSION } from '../../widgets/catalog';

const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The client capabilities an envelope declares, or an empty object. */
export function declaredCapabilities(envelope: unknown): Record<string, unknown> {
  const capabilities = isObject(envelope) ? envelope[CLIENT_CAPABILITIES] : undefined;
  return isObject(capabilities) ? capabilities : {};
}

/**
 * Whether client capabilities declare the MCP Apps extension the server offers, with the widgets' MIME
 * type: the client is a host that renders this server's widgets.
 */
export function supportsWidgets(capabilities: unknown): boolean {
  const extensions = isObject(capabilities) ? capabilities.extensions : undefined;
  if (!isObject(extensions)) return false;
  return Object.entries(WIDGET_EXTENSION).some(([id, offered]) => {
    const declared = extensions[id];
    const types = isObject(declared) ? declared.mimeTypes : undefined;
    return Array.isArray(types) && offered.mimeTypes.some((type) => types.includes(type));
  });
}

/** Whether a 2026-07-28 request's envelope declares a host of widgets: its results widget then shows the photos from their URLs. */
export function rendersWidgets(envelope: unknown): boolean {
  return supportsWidgets(declaredCapabilities(envelope));
}
