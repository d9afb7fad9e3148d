/**
 * What a 2026-07-28 request says its client supports, read from its `_meta` envelope
 * (`io.modelcontextprotocol/clientCapabilities`). A 2025 request carries no capabilities (the stateless
 * endpoint never keeps the handshake's), so a 2025 client is judged to support nothing here.
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
 * Whether the client renders this server's widgets: it declared the MCP Apps extension the server
 * offers, with the widgets' MIME type. Its results widget then shows the photos from their URLs.
 */
export function rendersWidgets(envelope: unknown): boolean {
  const extensions = declaredCapabilities(envelope).extensions;
  if (!isObject(extensions)) return false;
  return Object.entries(WIDGET_EXTENSION).some(([id, offered]) => {
    const declared = extensions[id];
    const types = isObject(declared) ? declared.mimeTypes : undefined;
    return Array.isArray(types) && offered.mimeTypes.some((type) => types.includes(type));
  });
}
