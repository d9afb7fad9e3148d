/**
 * The discovery documents, served by the real service, checked against the MCP registry's published
 * server.json schema. No registry serves a Server Card schema (SEP-2127 keeps it in an unpublished
 * repository): the card is checked against the same published definitions of a server and its remote,
 * plus the card's own rules (its $schema, no packages).
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { SERVER_CARD_SCHEMA, SERVER_JSON_SCHEMA } from '../../services/docs/discovery';
import { startFixture, type Fixture } from '../support/fixture';
import { registryServerSchema } from '../support/registry-schema';
import { jsonRpcOf } from '../support/json-rpc-answer';

let fx: Fixture;
let validateServer: ReturnType<Ajv['compile']>;
beforeAll(async () => {
  fx = await startFixture({ homes: 20, seed: 31 });
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const schema = registryServerSchema();
  expect(schema.$id).toBe(SERVER_JSON_SCHEMA);
  validateServer = ajv.compile(schema);
});
afterAll(async () => fx?.close());

describe('GET /api/public/server.json', () => {
  it('is valid against the published server.json schema, a remote streamable-http entry for /mcp/public', async () => {
    const { status, body } = await fx.get('/api/public/server.json');
    expect(status).toBe(200);
    expect(validateServer(body) ? [] : validateServer.errors).toEqual([]);
    expect(body.$schema).toBe(SERVER_JSON_SCHEMA);
    expect(body.remotes).toEqual([{ type: 'streamable-http', url: `${fx.config.publicBaseUrl}/mcp/public` }]);
  });

  it('fails the published schema when a rule is broken (the check can fail)', async () => {
    const { body } = await fx.get('/api/public/server.json');
    expect(validateServer({ ...body, name: 'no slash here' })).toBe(false);
    expect(validateServer({ ...body, description: 'x'.repeat(101) })).toBe(false);
    expect(validateServer({ ...body, remotes: [{ type: 'websocket', url: body.remotes[0].url }] })).toBe(false);
  });
});

describe('GET /.well-known/mcp/server-card.json', () => {
  it('names the same server and endpoint with the protocol versions the endpoint answers', async () => {
    const { status, body } = await fx.get('/.well-known/mcp/server-card.json');
    const registry = (await fx.get('/api/public/server.json')).body;
    expect(status).toBe(200);
    expect(body.$schema).toBe(SERVER_CARD_SCHEMA);
    expect(body.packages).toBeUndefined();
    expect(validateServer(body) ? [] : validateServer.errors).toEqual([]);
    expect({ ...body, $schema: undefined, remotes: undefined, capabilities: undefined }).toEqual({ ...registry, $schema: undefined, remotes: undefined });
    expect(body.remotes).toEqual([{ ...registry.remotes[0], supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18'] }]);
  });

  it('is served where the Server Card draft puts it, readable from any origin and cacheable, with the capabilities server/discover names', async () => {
    const old = await fx.get('/.well-known/mcp/server-card.json');
    const { status, body, headers } = await fx.get('/.well-known/mcp/server-card');
    expect(status).toBe(200);
    expect(body).toEqual(old.body);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('access-control-allow-origin')).toBe('*');
    expect(headers.get('access-control-allow-methods')).toBe('GET');
    expect(headers.get('cache-control')).toBe('public, max-age=3600');
    const res = await fetch(fx.url + '/mcp/public', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
      }),
    });
    const discovered = (await jsonRpcOf(res)) as { result: { capabilities: unknown } };
    expect(body.capabilities).toEqual(discovered.result.capabilities);
  });

  it('lists exactly the versions server/discover and initialize accept', async () => {
    const { body } = await fx.get('/.well-known/mcp/server-card.json');
    for (const version of body.remotes[0].supportedProtocolVersions as string[]) {
      const res = await fetch(fx.url + '/mcp/public', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      });
      const answer = (await jsonRpcOf(res)) as { result?: { protocolVersion: string } };
      if (version === '2026-07-28') continue; // no handshake on 2026-07-28: discover names it (mcp-eras.test.ts)
      expect(answer.result?.protocolVersion).toBe(version);
    }
  });
});
