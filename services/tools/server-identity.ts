/** Who the tool server is: one identity for `initialize`, `server/discover`, the server card and server.json. */
export const SERVER_IDENTITY = {
  name: 'furnished-catalog',
  title: 'Furnished apartment catalog',
  version: '1.0.0',
  /** At most 100 characters (the MCP registry's limit). */
  description: 'Search furnished apartments for fixed and Flex stays, quote all-in prices, save booking intents.',
} as const;

/** The implementation info MCP names the server by (`initialize`, `server/discover`, every 2026 result's stamp). */
export const SERVER_INFO = { name: SERVER_IDENTITY.name, title: SERVER_IDENTITY.title, version: SERVER_IDENTITY.version };

/** The protocol revisions POST /mcp/public answers, newest first. */
export const PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;
