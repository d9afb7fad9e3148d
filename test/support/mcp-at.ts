/** An SDK tool-server client connected to the service at `url` (a second copy beside a fixture's), kept in `opened` for closing. */
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as McpSdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export async function mcpClientAt(url: string, opened: McpClient[]): Promise<McpClient> {
  const client = new McpSdkClient({ name: 'catalog-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url + '/mcp/public')));
  opened.push(client);
  return client;
}
