/**
 * Discovery documents of the tool server, derived from its identity and address: the server card at
 * /.well-known/mcp/server-card (the Server Card draft's location; also at the older
 * /.well-known/mcp/server-card.json) and the MCP registry's server.json (remote, streamable-http). Both
 * name the same endpoint and versions as `server/discover`; the card also its capabilities.
 */
import { PROTOCOL_VERSIONS, SERVER_IDENTITY } from '../tools/server-identity';

/** Where the Server Card draft puts the card (served there and at the same path with `.json`). */
export const SERVER_CARD_PATH = '/.well-known/mcp/server-card';
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** The registry name: the public host in reverse-DNS order, then the server's name (`com.example.catalog/furnished-catalog`). */
export function registryName(publicBaseUrl: string): string {
  const host = new URL(publicBaseUrl).hostname.replace(/^\[|\]$/g, '').replace(/[^a-zA-Z0-9.-]/g, '-');
  return `${host.split('.').reverse().join('.')}/${SERVER_IDENTITY.name}`;
}

function common(publicBaseUrl: string, mcpPath: string) {
  return {
    name: registryName(publicBaseUrl),
    title: SERVER_IDENTITY.title,
    description: SERVER_IDENTITY.description,
    version: SERVER_IDENTITY.version,
    websiteUrl: `${publicBaseUrl}/api/public/tools`,
    remote: { type: 'streamable-http' as const, url: `${publicBaseUrl}${mcpPath}` },
  };
}

/** The server card: the registry entry's identity and remote, the versions it speaks and the capabilities `server/discover` names. */
export function serverCard(publicBaseUrl: string, mcpPath: string, capabilities: Record<string, unknown>) {
  const { remote, ...identity } = common(publicBaseUrl, mcpPath);
  return { $schema: SERVER_CARD_SCHEMA, ...identity, remotes: [{ ...remote, supportedProtocolVersions: [...PROTOCOL_VERSIONS] }], capabilities };
}

export function serverJson(publicBaseUrl: string, mcpPath: string) {
  const { remote, ...identity } = common(publicBaseUrl, mcpPath);
  return { $schema: SERVER_JSON_SCHEMA, ...identity, remotes: [remote] };
}
