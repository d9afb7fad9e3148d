/**
 * Rate limits settled on Elasticsearch time (docs/decisions.md, "Rate limits"), over real HTTP and the
 * real tool server on a generated world: a polygon over the country, dated and faceted, reads every
 * market's shard and spends more of a client's points than a market's search of the same weight; with
 * the rule off (the fixture's rate) both are answered as often as their weight allows.
 */
import { startService, type RunningService } from '../../services/main';
import { startFixture, type Fixture } from '../support/fixture';
import { jsonRpcMessage } from '../support/json-rpc-answer';
import { polygonText } from '../support/polygons';
import { COUNTRY } from '../support/polygons';
import { addDays } from '../../services/kernel/engine/dates';

let fx: Fixture;
let timed: RunningService;
let untimed: RunningService;
const POINTS = 40;

beforeAll(async () => {
  fx = await startFixture({ homes: 600, seed: 13, env: { TRUSTED_PROXIES: 'loopback' } });
  // Copies of the service on the same world with a small budget: one settling 2 shard-ms a point, one as the fixture does (bytes alone).
  timed = await startService({ ...fx.config, rateLimit: { ...fx.config.rateLimit, points: POINTS, esMsPerPoint: 2 } });
  untimed = await startService({ ...fx.config, rateLimit: { ...fx.config.rateLimit, points: POINTS } });
}, 300_000);

afterAll(async () => {
  await timed?.close();
  await untimed?.close();
  await fx?.close();
});

let clients = 0;
/** A client of its own (X-Forwarded-For), so each count starts from a full budget. */
const newClient = () => `10.9.${Math.floor(++clients / 250)}.${clients % 250}`;

/** How many times `request` is answered before the client's budget refuses it. */
async function answeredBeforeRefusal(request: (client: string) => Promise<number>): Promise<number> {
  const client = newClient();
  for (let n = 0; n < POINTS + 1; n++) if ((await request(client)) === 429) return n;
  throw new Error('never refused');
}

const get = (svc: RunningService, query: string) => async (client: string) =>
  (await fetch(`${svc.url}/api/public/search?${query}`, { headers: { 'x-forwarded-for': client } })).status;

const tool = (svc: RunningService, args: Record<string, unknown>) => async (client: string) => {
  const res = await fetch(`${svc.url}/mcp/public`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': client },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_apartments_tool', arguments: args } }),
  });
  const text = await res.text();
  return res.status === 200 && jsonRpcMessage(text).result?.isError ? 429 : res.status;
};

describe('cost-settled rate limits: Elasticsearch time', () => {
  let market: string;
  let stay: { start_date: string; end_date: string };

  beforeAll(async () => {
    market = (await fx.mongo.collections.markets.findOne({}))!.slug;
    const start = addDays(fx.today, 10);
    stay = { start_date: start, end_date: addDays(start, 45) };
  });

  const cheapQuery = () => `market=${market}&per_page=1`;
  const costlyQuery = () => `polygon=${encodeURIComponent(polygonText(COUNTRY))}&check_in=${stay.start_date}&check_out=${stay.end_date}&facets=true&per_page=1`;

  it('GET: a dated, faceted polygon over the country exhausts the budget in fewer requests than a market search of the same weight', async () => {
    const cheap = await answeredBeforeRefusal(get(timed, cheapQuery()));
    const costly = await answeredBeforeRefusal(get(timed, costlyQuery()));
    expect(costly).toBeLessThan(cheap);
  }, 120_000);

  it('GET: without the rule, both are answered as often as their weight of 2 allows (their answers are under 64 KiB)', async () => {
    expect(await answeredBeforeRefusal(get(untimed, cheapQuery()))).toBe(POINTS / 2);
    expect(await answeredBeforeRefusal(get(untimed, costlyQuery()))).toBe(POINTS / 2);
  }, 120_000);

  it('tool server: the same polygon search exhausts the budget in fewer calls than the market search', async () => {
    const cheap = await answeredBeforeRefusal(tool(timed, { market, per_page: 1 }));
    const costly = await answeredBeforeRefusal(tool(timed, { polygon: COUNTRY, ...stay, facets: true, per_page: 1 }));
    expect(costly).toBeLessThan(cheap);
  }, 120_000);
});
