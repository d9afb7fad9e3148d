/**
 * The apartment read and the quote keep building (and market) records per index generation
 * (buildings/generation-buildings.ts): their answers are the uncached path's, byte for byte, over
 * both transports, and a change is never served stale once an indexer run has made it searchable.
 * A copy with READ_CACHE=false on the same world is the uncached path.
 */
import fc from 'fast-check';
import type { Collection } from 'mongodb';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { startFixture, testConfig, type Fixture } from '../support/fixture';
import { mcpClientAt } from '../support/mcp-at';
import { startService, type RunningService } from '../../services/main';
import { addDays } from '../../services/kernel/engine/dates';
import { recordChanges } from '../../services/kernel/store/inventory-changes';
import { incrementalRun } from '../../indexer/incremental';
import { fullRebuild } from '../../indexer/full-rebuild';

let fx: Fixture;
let uncached: RunningService;
let slugs: string[];
const clients: McpClient[] = [];

beforeAll(async () => {
  fx = await startFixture({ homes: 80 });
  uncached = await startService(testConfig({ MONGO_DB: fx.config.mongoDb, HOMES_ALIAS: fx.config.homesAlias, READ_CACHE: 'false' }));
  slugs = (await fx.mongo.collections.homes.find({}, { projection: { slug: 1 } }).toArray()).map((h) => h.slug);
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await uncached?.close();
  await fx?.close();
});

const mcpOf = (url: string): Promise<McpClient> => mcpClientAt(url, clients);

/** One read as both copies answer it: the GET's status and bytes, and the tool call's whole result. */
interface Read {
  path: string;
  tool: string;
  args: Record<string, unknown>;
}

async function answers(url: string, client: McpClient, r: Read): Promise<{ status: number; body: string; tool: unknown }> {
  const res = await fetch(url + r.path);
  return { status: res.status, body: await res.text(), tool: await client.callTool({ name: r.tool, arguments: r.args }) };
}

const aRead = (today: () => string) =>
  fc
    .record({
      slug: fc.oneof(
        { weight: 9, arbitrary: fc.integer({ min: 0, max: 10_000 }).map((i) => slugs[i % slugs.length]) },
        { weight: 1, arbitrary: fc.constant('no-such-home') },
      ),
      quote: fc.boolean(),
      from: fc.integer({ min: -3, max: 200 }),
      nights: fc.integer({ min: 1, max: 120 }),
      dated: fc.boolean(),
      cats: fc.integer({ min: 0, max: 2 }),
    })
    .map(({ slug, quote, from, nights, dated, cats }): Read => {
      const [start, end] = [addDays(today(), from), addDays(today(), from + nights)];
      if (quote) {
        return {
          path: `/api/public/homes/${slug}/quote?check_in=${start}&check_out=${end}&cats=${cats}`,
          tool: 'get_quote_tool',
          args: { home_slug: slug, start_date: start, end_date: end, cats },
        };
      }
      return dated
        ? { path: `/api/public/homes/${slug}?check_in=${start}&check_out=${end}`, tool: 'get_apartment_tool', args: { slug, start_date: start, end_date: end } }
        : { path: `/api/public/homes/${slug}`, tool: 'get_apartment_tool', args: { slug } };
    });

describe('the apartment read and the quote with kept records', () => {
  it('answer exactly what the uncached path answers, over GET and the tool server, read once and read again', async () => {
    const [kept, fresh] = [await mcpOf(fx.url), await mcpOf(uncached.url)];
    await fc.assert(
      fc.asyncProperty(
        aRead(() => fx.today),
        async (r) => {
          const expected = await answers(uncached.url, fresh, r);
          // The first read may fill the copy's records, the second is served from them.
          expect(await answers(fx.url, kept, r)).toEqual(expected);
          expect(await answers(fx.url, kept, r)).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('never serve a building or market older than search once a run has made the change searchable', async () => {
    const { homes, properties, markets, inventoryChanges } = fx.mongo.collections;
    const client = await mcpOf(fx.url);
    const opts = { alias: fx.config.homesAlias, indexPrefix: fx.config.homesIndexPrefix, retireAfterMs: 0 };
    const home = (await homes.findOne({ published: true, deleted_at: null }))!;
    const read = async () => {
      const viaGet = (await fx.get(`/api/public/homes/${home.slug}`)).body;
      const viaTool = (await client.callTool({ name: 'get_apartment_tool', arguments: { slug: home.slug } })).structuredContent as typeof viaGet;
      expect(viaTool).toEqual(viaGet);
      return viaGet;
    };
    const searchable = async (): Promise<string> => {
      const found = await fx.es.search<{ property_name: string }>({ index: fx.config.homesAlias, query: { ids: { values: [home._id] } } });
      return found.hits.hits[0]!._source!.property_name;
    };
    let shown = (await read()).property.name;
    await read(); // the building is now kept

    for (const [round, run] of [
      ['incremental', () => incrementalRun(fx.es, fx.mongo.collections, opts)],
      ['full', () => fullRebuild(fx.es, fx.mongo.collections, opts)],
    ] as const) {
      const name = `Renamed for the ${round} run`;
      await properties.updateOne({ _id: home.property_id }, { $set: { name, updated_at: new Date() } });
      await markets.updateOne({ slug: home.market_slug }, { $set: { name: `Market renamed for the ${round} run` } });
      await recordChanges(inventoryChanges, 'test', { properties: [home.property_id], markets: [home.market_slug] });
      // Not searchable yet: the read may show either, as long as both transports agree.
      expect([shown, name]).toContain((await read()).property.name);
      await run();
      expect(await searchable()).toBe(name);
      const after = await read();
      expect(after.property.name).toBe(name);
      expect(after.market.name).toBe(`Market renamed for the ${round} run`);
      const quote = (await fx.get(`/api/public/homes/${home.slug}/quote?check_in=${addDays(fx.today, 10)}&check_out=${addDays(fx.today, 40)}`)).body;
      const freshQuote = await (
        await fetch(`${uncached.url}/api/public/homes/${home.slug}/quote?check_in=${addDays(fx.today, 10)}&check_out=${addDays(fx.today, 40)}`)
      ).json();
      expect(quote).toEqual(freshQuote);
      shown = name;
    }
  });

  it('stop keeping records when a run fails between its moves of the generation, and keep them again after the next run', async () => {
    const { properties, inventoryChanges, indexerState } = fx.mongo.collections;
    const home = (await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null }, { skip: 3 }))!;
    await fx.get(`/api/public/homes/${home.slug}`);
    // A run that died after its first move: the flag stays set.
    const generation = indexerState as unknown as Collection<{ _id: string; n?: number; applying?: boolean }>;
    await generation.updateOne({ _id: 'generation' }, { $inc: { n: 1 }, $set: { applying: true } }, { upsert: true });
    await properties.updateOne({ _id: home.property_id }, { $set: { name: 'Written during a dead run' } });
    expect((await fx.get(`/api/public/homes/${home.slug}`)).body.property.name).toBe('Written during a dead run');
    await recordChanges(inventoryChanges, 'test', { properties: [home.property_id] });
    await incrementalRun(fx.es, fx.mongo.collections, { alias: fx.config.homesAlias, indexPrefix: fx.config.homesIndexPrefix });
    expect(await indexerState.findOne({ _id: 'generation' })).toMatchObject({ applying: false });
    expect((await fx.get(`/api/public/homes/${home.slug}`)).body.property.name).toBe('Written during a dead run');
    // Kept again: a write no run has applied yet is not shown (search does not show it either).
    await properties.updateOne({ _id: home.property_id }, { $set: { name: 'Not applied yet' } });
    expect((await fx.get(`/api/public/homes/${home.slug}`)).body.property.name).toBe('Written during a dead run');
  });
});
