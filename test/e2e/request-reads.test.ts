/**
 * Every MongoDB read a request makes is a unique-key lookup (home by slug, building or market by
 * `_id`, intent by email) or a read bounded by a small limit (docs/design.md, "The stores"): the
 * service's driver commands are watched while every tool is called over both transports.
 */
import type { CommandStartedEvent } from 'mongodb';
import { mongoUrlWithCommandEvents, startFixture, type Fixture } from '../support/fixture';
import { TOOL_SAMPLES, toolsWithoutSamples, worldSamples, type SampleSource } from '../support/tool-samples';
import { TOOLS } from '../../services/tools/registry';

let fx: Fixture;
let source: SampleSource;
const commands: CommandStartedEvent[] = [];

beforeAll(async () => {
  fx = await startFixture({ homes: 60, env: { MONGO_URL: mongoUrlWithCommandEvents() } });
  source = await worldSamples(fx, { homes: 20, unknownEvery: 5 });
  fx.svc.deps.db.client.on('commandStarted', (e) => commands.push(e));
});

afterAll(async () => {
  await fx?.close();
});

const UNIQUE_KEYS: Record<string, string[]> = {
  homes: ['_id', 'slug'],
  properties: ['_id', 'slug'],
  markets: ['_id'],
  photos: ['_id'],
  indexer_state: ['_id'],
  booking_intents: ['_id', 'email'],
  policies: ['_id'],
  // rate-limiter-flexible's count per key (a unique index: kernel/store/collections.ts).
  rate_limits: ['key'],
  // A watch's owner places (watch_owners: `_id` an email's key and slot) and the watches by their id or token's hash (a unique index).
  watch_owners: ['_id'],
  watches: ['_id', 'token_hash'],
};
const SMALL_LIMIT = 1_000;

/** Why a read is not allowed on the request path, or null when it is. */
function scanOf(e: CommandStartedEvent): string | null {
  const cmd = e.command as Record<string, unknown>;
  const coll = String(cmd[e.commandName]);
  if (e.commandName === 'find') {
    const filter = (cmd.filter ?? {}) as Record<string, unknown>;
    const keys = Object.keys(filter);
    // One unique key equal to a value finds one document at most, whatever else the filter adds (an expiry).
    const unique = UNIQUE_KEYS[coll] ?? [];
    const byUniqueKey = (keys.length === 1 && unique.includes(keys[0])) || keys.some((k) => unique.includes(k) && typeof filter[k] === 'string');
    const bounded = typeof cmd.limit === 'number' && cmd.limit > 0 && cmd.limit <= SMALL_LIMIT && ['markets', 'policies'].includes(coll);
    return byUniqueKey || bounded ? null : `find on ${coll} by ${JSON.stringify(filter)} (limit ${String(cmd.limit)})`;
  }
  if (['aggregate', 'count', 'distinct', 'getMore'].includes(e.commandName)) return `${e.commandName} on ${coll}`;
  return null;
}

describe('MongoDB reads on the request path', () => {
  it('has sample arguments for every tool of the registry', () => {
    expect(toolsWithoutSamples(TOOLS.map((t) => t.name))).toEqual([]);
  });

  it('are unique-key lookups or small bounded reads, for every tool over both transports', async () => {
    const client = await fx.mcp();
    commands.length = 0;
    for (let round = 0; round < 3; round++) {
      for (const tool of TOOLS) {
        await client.callTool({ name: tool.name, arguments: TOOL_SAMPLES[tool.name](source) });
      }
      for (const path of ['/api/public/markets', '/api/public/policies-faq', `/api/public/homes/${source.slug()}`, '/api/public/status']) {
        expect((await fx.get(path)).status).toBe(200);
      }
    }
    const reads = commands.filter((e) => ['find', 'aggregate', 'count', 'distinct', 'getMore'].includes(e.commandName));
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.map(scanOf).filter(Boolean)).toEqual([]);
  });
});

describe('building records on the building search path', () => {
  it('are read once for a page and then served from the cache (CACHE_TTL_SECONDS) while the cards stay the same', async () => {
    const client = await fx.mcp();
    const home = (await fx.mongo.collections.homes.findOne({ slug: source.slug() }))!;
    const args = { market: home.market_slug, per_page: 5 };
    const propertyReads = () => commands.filter((e) => e.commandName === 'find' && (e.command as Record<string, unknown>).find === 'properties').length;
    commands.length = 0;
    const first = await client.callTool({ name: 'search_properties_tool', arguments: args });
    const afterFirst = propertyReads();
    const second = await client.callTool({ name: 'search_properties_tool', arguments: args });
    expect(second.structuredContent).toEqual(first.structuredContent);
    expect(propertyReads()).toBe(afterFirst);
    expect((first.structuredContent as { properties: unknown[] }).properties.length).toBeGreaterThan(0);
  });
});
