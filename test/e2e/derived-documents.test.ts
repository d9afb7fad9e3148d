/**
 * The documents derived from the registry (docs/contract.md, the table of served documents at its top) and the tool
 * server's protocol errors: openapi.json passes a real OpenAPI 3.1 validator, every GET operation
 * answers a request built from its own parameters, tools.json and the markdown follow the registry,
 * and malformed JSON-RPC never yields a 5xx.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { startFixture, type Fixture } from '../support/fixture';
import { TOOLS } from '../../services/tools/registry';
import { addDays } from '../../services/kernel/engine/dates';
import { jsonRpcOf } from '../support/json-rpc-answer';

let fx: Fixture;
let slug: string;
let marketSlug: string;

beforeAll(async () => {
  fx = await startFixture({ homes: 60 });
  slug = (await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null }))!.slug;
  marketSlug = (await fx.mongo.collections.markets.findOne({}))!.slug;
});

afterAll(async () => {
  await fx?.close();
});

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: { type?: string; pattern?: string; enum?: unknown[]; minimum?: number };
}

/** A valid value for a parameter, from its schema (and, for slugs, from this test's world). */
function valueFor(p: Parameter): string | null {
  if (p.name === 'slug' || p.name === 'home') return slug;
  if (p.name === 'market') return marketSlug;
  if (p.schema.enum) return String(p.schema.enum[0]);
  if (p.name === 'check_in') return addDays(fx.today, 20);
  if (p.name === 'check_out') return addDays(fx.today, 60);
  if (p.schema.pattern?.includes('A-Za-z')) return 'NY';
  if (p.schema.type === 'integer') return String(p.schema.minimum ?? 0);
  return null;
}

describe('GET /api/public/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, by a real validator', async () => {
    const { body } = await fx.get('/api/public/openapi.json');
    const run = spawnSync(process.execPath, [path.resolve(__dirname, '../support/validate-openapi.mjs')], { input: JSON.stringify(body), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { valid: boolean; version: string; errors: unknown[] };
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.version).toBe('3.1');
    expect(body.info.version).toBe('1.0.0');
    // The validator must be able to say no: a document without info fails.
    const broken = spawnSync(process.execPath, [path.resolve(__dirname, '../support/validate-openapi.mjs')], {
      input: JSON.stringify({ ...body, info: undefined }),
      encoding: 'utf8',
    });
    expect(JSON.parse(broken.stdout).valid).toBe(false);
  });

  it('has every GET route of the registry, and each answers 200 to a request built from its own parameters', async () => {
    const { body } = await fx.get('/api/public/openapi.json');
    const operations = Object.entries(
      body.paths as Record<string, { get?: { operationId?: string; parameters?: Parameter[]; 'x-required-one-of'?: string[][] } }>,
    )
      .filter((e): e is [string, { get: NonNullable<(typeof e)[1]['get']> }] => e[1].get !== undefined)
      .filter(([, item]) => TOOLS.some((t) => t.name === item.get.operationId));
    expect(operations.map(([, item]) => item.get.operationId).sort()).toEqual(
      TOOLS.filter((t) => t.get)
        .map((t) => t.name)
        .sort(),
    );
    for (const [path, item] of operations) {
      let url = path;
      const query = new URLSearchParams();
      // Where one of several groups is required (the map: a market or a viewport), the first group.
      const oneOf = item.get['x-required-one-of']?.[0] ?? [];
      for (const p of item.get.parameters ?? []) {
        const value = valueFor(p);
        if (value === null) {
          expect(p.required ?? false).toBe(false);
          continue;
        }
        if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(value));
        else if (p.required || p.schema.enum || p.name === 'home' || oneOf.includes(p.name)) query.set(p.name, value);
      }
      const res = await fx.get(`${url}${query.size ? `?${query}` : ''}`);
      expect({ path: url, status: res.status, error: res.status === 200 ? undefined : res.body }).toEqual({ path: url, status: 200, error: undefined });
    }
  });
});

describe('openapi.json beyond the tools', () => {
  it('documents the operations endpoints, and gives every endpoint a 400 and a 404 carrying the error object', async () => {
    const { body } = await fx.get('/api/public/openapi.json');
    type Operation = { responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
    const paths = body.paths as Record<string, Record<string, Operation>>;
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/api/public/status', '/livez', '/readyz', '/metrics']));
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const code of ['400', '404']) {
          expect({ path, method, code, schema: operation.responses[code]?.content?.['application/json']?.schema }).toEqual({
            path,
            method,
            code,
            schema: body.components.schemas.Error,
          });
        }
      }
    }
    expect(paths['/readyz'].get.responses['503']).toBeDefined();
  });
});

describe('the tool server under malformed JSON-RPC', () => {
  it('answers 200 malformed requests without a single 5xx', async () => {
    const bodies: string[] = [
      '',
      '{',
      '[',
      'null',
      'true',
      '42',
      '"text"',
      '[]',
      '{}',
      '{"jsonrpc":"1.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","id":1}',
      '{"jsonrpc":"2.0","id":1,"method":42}',
      '{"jsonrpc":"2.0","id":{},"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":null}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":42}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_markets_tool","arguments":"x"}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_markets_tool","arguments":[1,2]}}',
      '{"jsonrpc":"2.0","id":1,"method":"no/such/method"}',
      '[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"bad":true}]',
      `{"jsonrpc":"2.0","id":${'9'.repeat(400)},"method":"tools/list"}`,
      '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":42}}',
      '\u0000\u0001\u0002',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_quote_tool","arguments":{"home_slug":null}}}',
    ];
    const requests: Array<{ body: string; type: string }> = [];
    for (let i = 0; requests.length < 200; i++) {
      const body = bodies[i % bodies.length];
      const type = i % 3 === 0 ? 'text/plain' : 'application/json';
      requests.push({ body: i % 7 === 0 ? body + ' '.repeat(i) : body, type });
    }
    const statuses = await Promise.all(
      requests.map(async (r) => {
        const res = await fetch(`${fx.url}/mcp/public`, {
          method: 'POST',
          headers: { 'content-type': r.type, accept: 'application/json, text/event-stream' },
          body: r.body,
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.length).toBe(200);
  });
});

describe('the tool server under requests whose params do not fit their method', () => {
  it.each([
    ['tools/call without params', '{"jsonrpc":"2.0","id":7,"method":"tools/call"}'],
    ['tools/call with a numeric name', '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":42}}'],
    ['tools/call with array arguments', '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_markets_tool","arguments":[]}}'],
    ['resources/read without a uri', '{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{}}'],
  ])('answers %s with -32602 Invalid params in one line, never a validator dump', async (_what, body) => {
    const res = await fetch(`${fx.url}/mcp/public`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    });
    expect(res.status).toBe(200);
    const answer = (await jsonRpcOf(res)) as { id: number; error: { code: number; message: string } };
    expect(answer.id).toBe(7);
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.message).toMatch(/^Invalid params for (tools\/call|resources\/read): .* expected params \{/);
    expect(answer.error.message).not.toMatch(/[\n[{]"|invalid_type|"code"/);
  });

  it('refuses a batch whole, its well-formed members too (no protocol version it speaks has batching)', async () => {
    const res = await fetch(`${fx.url}/mcp/public`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '[{"jsonrpc":"2.0","id":1,"method":"tools/call"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_policies_faq_tool","arguments":{"topic":"pets"}}}]',
    });
    expect(res.status).toBe(400);
    expect(await jsonRpcOf(res)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/Batches are not supported/) } });
  });
});
