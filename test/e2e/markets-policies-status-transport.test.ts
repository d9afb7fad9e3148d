/**
 * The basic public routes through real HTTP and the SDK's MCP Client: markets, policies, status, the
 * transport rules (404, 405, CORS, malformed JSON-RPC, body limit), the tool list and GET = tools/call,
 * and the derived documents (openapi.json, the tools markdown), against real ES and Mongo-wire servers.
 */
import { startFixture, type Fixture } from '../support/fixture';
import { POLICY_TOPICS } from '../../services/policies/content';
import { incrementalRun } from '../../indexer/incremental';
import { recordChanges } from '../../services/kernel/store/inventory-changes';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({ homes: 150 });
});

afterAll(async () => {
  await fx?.close();
});

describe('GET /api/public/markets', () => {
  it('lists markets with their display cities, and count equals the list length', async () => {
    const { status, body } = await fx.get('/api/public/markets');
    expect(status).toBe(200);
    expect(body.count).toBe(body.markets.length);
    expect(body.count).toBeGreaterThan(0);
    for (const m of body.markets) {
      expect(m).toEqual({ slug: expect.any(String), name: expect.any(String), state: expect.any(String), cities: expect.any(Array) });
      expect(m.cities.length).toBeGreaterThan(0);
    }
  });

  it('lists a market or city only while search can return one of its apartments', async () => {
    const agg = await fx.es.search({
      index: fx.config.homesAlias,
      size: 0,
      query: { term: { bookable: true } },
      aggs: { cities: { terms: { field: 'city_slug', size: 1000 } } },
    });
    const searchable = new Set(((agg.aggregations?.cities as any).buckets as any[]).map((b) => b.key));
    const { body } = await fx.get('/api/public/markets');
    const listed = body.markets.flatMap((m: any) => m.cities.map((c: any) => c.slug));
    expect(new Set(listed)).toEqual(searchable);

    // Unpublish every home of one city and re-index: the city disappears from the list.
    const city = listed[0];
    const ids = (await fx.mongo.collections.homes.find({ city_slug: city }, { projection: { _id: 1 } }).toArray()).map((h) => h._id);
    await fx.mongo.collections.homes.updateMany({ city_slug: city }, { $set: { published: false, updated_at: new Date() } });
    await recordChanges(fx.mongo.collections.inventoryChanges, 'test', { homes: ids });
    await incrementalRun(fx.es, fx.mongo.collections, { alias: fx.config.homesAlias, indexPrefix: fx.config.homesIndexPrefix });
    const after = await fx.get('/api/public/markets');
    expect(after.body.markets.flatMap((m: any) => m.cities.map((c: any) => c.slug))).not.toContain(city);
  });

  it('answers 400 with the error object for an invalid state', async () => {
    const { status, body } = await fx.get('/api/public/markets?state=New%20York');
    expect(status).toBe(400);
    expect(body).toEqual({ error: { code: 'invalid_parameters', message: expect.any(String) } });
  });

  it('answers 400 naming the parameter for an unknown query parameter', async () => {
    const { status, body } = await fx.get('/api/public/markets?colour=blue');
    expect(status).toBe(400);
    expect(body.error.code).toBe('unknown_parameter');
    expect(body.error.message).toContain('colour');
  });

  it('sends open CORS', async () => {
    const res = await fetch(fx.url + '/api/public/markets', { headers: { Origin: 'https://example.org' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('GET /api/public/policies-faq', () => {
  it('returns the eight topics in order when q is omitted', async () => {
    const { status, body } = await fx.get('/api/public/policies-faq');
    expect(status).toBe(200);
    expect(body.entries.map((e: any) => e.topic)).toEqual([...POLICY_TOPICS]);
  });

  it('maps q to topic and returns one entry', async () => {
    const { body } = await fx.get('/api/public/policies-faq?q=pets');
    expect(body.entries).toHaveLength(1);
    expect(body.entries[0].topic).toBe('pets');
    expect(body.entries[0].answer).toMatch(/2 pets/);
  });

  it('answers conservatively: no dollar figure for the deposit', async () => {
    const { body } = await fx.get('/api/public/policies-faq?q=security_deposit');
    expect(body.entries[0].answer).not.toMatch(/\$\s?\d/);
    expect(body.entries[0].answer).toMatch(/checkout/);
  });

  it('answers 400 for an unknown topic', async () => {
    const { status, body } = await fx.get('/api/public/policies-faq?q=weather');
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_parameters');
  });
});

describe('GET /api/public/status', () => {
  it('reports ok with both stores healthy and the index loaded (the details on the admin port)', async () => {
    const { status, body } = await fx.get('/api/public/status');
    expect(status).toBe(200);
    expect(body.status).toBe('ok');
    expect(body.index.loaded).toBe(true);
    const full = (await (await fetch(`${fx.adminUrl}/status`)).json()) as Record<string, any>;
    expect(full.elasticsearch.ok).toBe(true);
    expect(full.mongodb.ok).toBe(true);
    expect(full.index.loaded).toBe(true);
    expect(full.index.documents).toBeGreaterThan(0);
    expect(full.index.alias_target).toMatch(new RegExp(`^${fx.config.homesIndexPrefix}-`));
    expect(full.index.last_full_run.documents).toBeGreaterThan(0);
  });
});

describe('HTTP transport rules', () => {
  it('answers 404 with the error object for an unknown path', async () => {
    const { status, body } = await fx.get('/api/public/nowhere');
    expect(status).toBe(404);
    expect(body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('answers 405 to a write method on the read-only API', async () => {
    const res = await fetch(fx.url + '/api/public/markets', { method: 'POST', body: '{}' });
    expect(res.status).toBe(405);
    expect(((await res.json()) as any).error.code).toBe('method_not_allowed');
  });

  it('answers GET, DELETE, PUT and PATCH on /mcp/public with a JSON 405 and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
      const res = await fetch(fx.url + '/mcp/public', { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
    }
  });

  it('answers malformed JSON-RPC with a parse error, not a 5xx', async () => {
    const res = await fetch(fx.url + '/mcp/public', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc": "2.0", ',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe(-32700);
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await fetch(fx.url + '/mcp/public', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(fx.config.bodyLimitBytes) } }),
    });
    expect(res.status).toBe(413);
  });

  it('answers the MCP preflight with the MCP headers allowed', async () => {
    const res = await fetch(fx.url + '/mcp/public', {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'mcp-protocol-version' },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Mcp-Protocol-Version/i);
  });
});

describe('POST /mcp/public with the SDK client', () => {
  it('lists the registry tools with titles, schemas and every annotation hint', async () => {
    const client = await fx.mcp();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_markets_tool', 'get_policies_faq_tool']));
    for (const t of tools) {
      expect(t.title).toBeTruthy();
      expect(t.outputSchema).toBeTruthy();
      expect(t.annotations).toEqual(
        expect.objectContaining({
          readOnlyHint: expect.any(Boolean),
          destructiveHint: expect.any(Boolean),
          idempotentHint: expect.any(Boolean),
          openWorldHint: expect.any(Boolean),
        }),
      );
    }
  });

  it('tools.json is the same object as tools/list, less the tools only an app may call', async () => {
    const client = await fx.mcp();
    const listed = await client.listTools();
    const { body } = await fx.get('/api/public/tools.json');
    const forModels = listed.tools.filter((t) => !(t._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility?.every((v) => v === 'app'));
    expect(forModels).toHaveLength(14);
    expect(body.tools).toEqual(forModels);
  });

  it('gives the same JSON through GET and through tools/call', async () => {
    const client = await fx.mcp();
    for (const [tool, args, path] of [
      ['list_markets_tool', {}, '/api/public/markets'],
      ['get_policies_faq_tool', { topic: 'parking' }, '/api/public/policies-faq?q=parking'],
    ] as const) {
      const res = await client.callTool({ name: tool, arguments: args });
      const viaGet = await fx.get(path);
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toEqual(viaGet.body);
      expect(JSON.parse((res.content as any)[0].text)).toEqual(viaGet.body);
    }
  });

  it('returns invalid arguments as an isError result carrying the error object', async () => {
    const client = await fx.mcp();
    const res = await client.callTool({ name: 'get_policies_faq_tool', arguments: { topic: 'weather' } });
    expect(res.isError).toBe(true);
    const body = JSON.parse((res.content as any)[0].text);
    expect(body).toEqual({ error: { code: 'invalid_parameters', message: expect.any(String) } });
  });

  it('rejects an unknown argument instead of dropping it', async () => {
    const client = await fx.mcp();
    const res = await client.callTool({ name: 'list_markets_tool', arguments: { check_in: '2027-01-01' } });
    expect(res.isError).toBe(true);
    expect(JSON.parse((res.content as any)[0].text).error.message).toMatch(/start_date/);
  });

  it('answers an unknown tool with a JSON-RPC error', async () => {
    const client = await fx.mcp();
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

describe('derived documents', () => {
  it('openapi.json is OpenAPI 3.1.0, version 1.0.0, with a GET path per tool route and 400/404 on each', async () => {
    const { body } = await fx.get('/api/public/openapi.json');
    expect(body.openapi).toBe('3.1.0');
    expect(body.info.version).toBe('1.0.0');
    expect(body.paths['/api/public/markets'].get.operationId).toBe('list_markets_tool');
    const q = body.paths['/api/public/policies-faq'].get.parameters.map((p: any) => p.name);
    expect(q).toEqual(['q']);
    for (const [path, item] of Object.entries<any>(body.paths)) {
      if (item.get?.operationId && path !== '/api/public/status') {
        expect(item.get.responses['400']).toBeDefined();
        expect(item.get.responses['404']).toBeDefined();
      }
    }
  });

  it('the tools markdown documents every tool', async () => {
    const { status, body, headers } = await fx.get('/api/public/tools');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/markdown/);
    expect(body).toContain('## list_markets_tool');
    expect(body).toContain('## get_policies_faq_tool');
  });
});
