/**
 * No request, however malformed, may produce a 5xx (developers' guide; docs/contract.md, "Errors"): every
 * argument of every tool, set one at a time to extreme or wrong values on top of valid arguments,
 * over the tool server (raw JSON, so 1e400 arrives as the number Infinity) and over GET. Each answer
 * is a success or the contract's error object with a 4xx code, never internal_error.
 */
import { TOOLS } from '../../services/tools/registry';
import { startFixture, type Fixture } from '../support/fixture';
import { TOOL_SAMPLES, worldSamples, type SampleSource } from '../support/tool-samples';

let fx: Fixture;
let samples: SampleSource;

beforeAll(async () => {
  fx = await startFixture({ homes: 120 });
  samples = await worldSamples(fx);
});

afterAll(async () => {
  await fx?.close();
});

/** Raw JSON texts: numbers JSON can carry but JavaScript cannot hold exactly, and every wrong type. */
const HOSTILE_VALUES = [
  '1e400',
  '-1e400',
  '1e300',
  '-1e300',
  '9007199254740993',
  '2147483648',
  '-1',
  '0',
  '0.5',
  '""',
  JSON.stringify('x'.repeat(5_000)),
  '"2027-02-30"',
  '"99999-01-01"',
  '"indefinite"',
  '"\\u0000"',
  // Elasticsearch's query-string syntax, which no argument may be parsed as (q is plain words).
  JSON.stringify('pool AND (gym OR "roof*") name:~2 \\ /x/ [a TO z] {}'),
  'null',
  'true',
  '{}',
  '[]',
  '[1,2,3,4,5,6]',
  '{"display_city":{}}',
];

/** GET values: query strings carry text only. */
const HOSTILE_QUERY_VALUES = [
  '1e400',
  '-1e300',
  '9007199254740993',
  '',
  'x'.repeat(2_000),
  '2027-02-30',
  'NaN',
  'Infinity',
  '%00',
  '[]',
  'true',
  'pool AND (gym OR "roof*") name:~2 \\ /x/',
];

interface Answer {
  status: number;
  text: string;
}

type Era = '2025-11-25' | '2026-07-28';
const ENVELOPE = '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},';

/** A tools/call as a client of the era sends it (2026-07-28: the envelope and the Mcp-* headers). */
async function rawToolCall(name: string, argumentsJson: string, era: Era = '2025-11-25'): Promise<Answer> {
  const modern = era === '2026-07-28';
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (modern) Object.assign(headers, { 'mcp-protocol-version': era, 'mcp-method': 'tools/call', 'mcp-name': name });
  const res = await fetch(`${fx.url}/mcp/public`, {
    method: 'POST',
    headers,
    body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{${modern ? ENVELOPE : ''}"name":${JSON.stringify(name)},"arguments":${argumentsJson}}}`,
  });
  return { status: res.status, text: await res.text() };
}

/** The arguments object's JSON with one property replaced by a raw JSON text. */
function withRawValue(base: Record<string, unknown>, key: string, raw: string): string {
  const rest = Object.fromEntries(Object.entries(base).filter(([k]) => k !== key));
  const head = JSON.stringify(rest).slice(0, -1);
  return `${head}${head.length > 1 ? ',' : ''}${JSON.stringify(key)}:${raw}}`;
}

/**
 * The answers to `cases`, in their order, sent `IN_FLIGHT` at a time: each case is one request that
 * stands alone, and a service that answers one without a 5xx must do so beside others too.
 */
const IN_FLIGHT = 6;
async function answersOf<T>(cases: readonly T[], send: (c: T) => Promise<{ what: string } & Answer>): Promise<Array<{ what: string } & Answer>> {
  const answers: Array<{ what: string } & Answer> = new Array(cases.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < cases.length; i = next++) answers[i] = await send(cases[i]);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return answers;
}

function failures(answers: Array<{ what: string } & Answer>): string[] {
  return answers.flatMap(({ what, status, text }) => {
    if (status >= 500) return [`${what}: HTTP ${status} ${text.slice(0, 200)}`];
    if (/"internal_error"|"service_unavailable"/.test(text)) return [`${what}: ${text.slice(0, 200)}`];
    return [];
  });
}

describe('hostile arguments on the tool server', () => {
  it.each(TOOLS.flatMap((t) => (['2025-11-25', '2026-07-28'] as const).map((era) => [t.name, era] as const)))(
    '%s (%s) answers every extreme or mistyped argument without a 5xx or an internal error',
    async (name, era) => {
      const tool = TOOLS.find((t) => t.name === name)!;
      const keys = Object.keys((tool.inputSchema as { properties: Record<string, unknown> }).properties);
      const cases = keys.flatMap((key) => HOSTILE_VALUES.map((raw) => ({ key, raw, base: TOOL_SAMPLES[name](samples) })));
      const answers = await answersOf(cases, async ({ key, raw, base }) => ({
        what: `${name} ${key}=${raw.slice(0, 40)}`,
        ...(await rawToolCall(name, withRawValue(base, key, raw), era)),
      }));
      expect(answers.length).toBe(keys.length * HOSTILE_VALUES.length);
      expect(failures(answers)).toEqual([]);
    },
  );
});

describe('hostile query strings on the GET API', () => {
  it('answers every extreme parameter of every GET route without a 5xx', async () => {
    const openapi = (await fx.get('/api/public/openapi.json')).body as {
      paths: Record<string, { get?: { parameters?: Array<{ name: string; in: string; required?: boolean }> } }>;
    };
    const stay = samples.stay();
    /** Valid values for the required parameters, so the hostile one is what the route judges. */
    const valid: Record<string, string> = { slug: samples.slug(), market: samples.marketSlug(), check_in: stay.start, check_out: stay.end };
    const cases: Array<{ url: string; name: string; v: string; query: URLSearchParams }> = [];
    for (const [path, item] of Object.entries(openapi.paths)) {
      if (!item.get) continue; // a route with no GET (POST and DELETE of the watches) has no query string to judge
      const params = item.get.parameters ?? [];
      const url = path.replace('{slug}', valid.slug);
      for (const p of params.filter((x) => x.in === 'query')) {
        for (const v of HOSTILE_QUERY_VALUES) {
          const query = new URLSearchParams();
          for (const q of params) if (q.in === 'query' && q.required && q.name !== p.name) query.set(q.name, valid[q.name]);
          query.set(p.name, v);
          cases.push({ url, name: p.name, v, query });
        }
      }
    }
    const answers = await answersOf(cases, async ({ url, name, v, query }) => {
      const res = await fetch(`${fx.url}${url}?${query}`);
      return { what: `GET ${url} ${name}=${v.slice(0, 40)}`, status: res.status, text: await res.text() };
    });
    expect(answers.length).toBeGreaterThan(100);
    expect(answers.filter((a) => a.status === 404 && a.text.includes('"not_found"'))).toEqual([]);
    expect(failures(answers)).toEqual([]);
  });
});
