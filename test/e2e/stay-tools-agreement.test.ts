/**
 * The three stay tools (get_apartment_tool, get_flex_options_tool, get_quote_tool) agree: the same JSON
 * through GET and the MCP client, errors as isError results, the embedded hero photo, and one answer
 * from the engine, the quote and the apartment read for generated homes.
 */
import type { Fixture } from '../support/fixture';
import { startStayFixture } from './shared/stay-homes';
import { addDays } from '../../services/kernel/engine/dates';
import { checkStay } from '../../services/kernel/engine/stay-check';

let fx: Fixture;
let today: string;
const d = (n: number): string => addDays(today, n);

beforeAll(async () => {
  fx = await startStayFixture();
  today = fx.today;
});

afterAll(async () => {
  await fx?.close();
});

describe('the same request through GET and the MCP client', () => {
  it('gives the same JSON for each of the three tools', async () => {
    const client = await fx.mcp();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        'get_apartment_tool',
        { slug: 'test-blocked', start_date: d(45), end_date: d(60) },
        `/api/public/homes/test-blocked?check_in=${d(45)}&check_out=${d(60)}`,
      ],
      ['get_flex_options_tool', { home_slug: 'test-minstay' }, '/api/public/homes/test-minstay/flex-options'],
      [
        'get_quote_tool',
        { home_slug: 'test-open', start_date: d(3), end_date: d(9), cats: 1 },
        `/api/public/homes/test-open/quote?check_in=${d(3)}&check_out=${d(9)}&cats=1`,
      ],
    ];
    for (const [name, args, path] of cases) {
      const viaMcp = await client.callTool({ name, arguments: args });
      const viaGet = await fx.get(path);
      expect(viaMcp.isError).toBeFalsy();
      expect(viaMcp.structuredContent).toEqual(viaGet.body);
    }
  });

  it('returns errors of the error table as isError results', async () => {
    const client = await fx.mcp();
    const res = await client.callTool({
      name: 'get_quote_tool',
      arguments: { home_slug: 'test-open', start_date: d(3), end_date: 'indefinite', committed_nights: 270 },
    });
    expect(res.isError).toBe(true);
    expect(JSON.parse((res.content as any)[0].text).error.code).toBe('tier_not_offered');
    const missing = await client.callTool({ name: 'get_apartment_tool', arguments: { slug: 'nope' } });
    expect(JSON.parse((missing.content as any)[0].text).error.code).toBe('home_not_found');
  });

  it('embeds the hero photo as image content when include_hero_image is true', async () => {
    const client = await fx.mcp();
    const res = await client.callTool({ name: 'get_apartment_tool', arguments: { slug: 'test-open', include_hero_image: true } });
    const images = (res.content as any[]).filter((c) => c.type === 'image');
    expect(images).toHaveLength(1);
    expect(images[0].mimeType).toBe('image/jpeg');
    expect(images[0]._meta).toEqual({ home_slug: 'test-open' });
    expect(Buffer.from(images[0].data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const plain = await client.callTool({ name: 'get_apartment_tool', arguments: { slug: 'test-open' } });
    expect((plain.content as any[]).filter((c) => c.type === 'image')).toHaveLength(0);
  });
});

describe('one home, one stay, one answer', () => {
  it('agrees between the engine, the quote and the apartment read, and shows one price, for generated homes', async () => {
    const homes = await fx.mongo.collections.homes
      .find({ published: true, deleted_at: null, _id: { $not: /^test-/ } })
      .limit(40)
      .toArray();
    let checked = 0;
    for (const [i, h] of homes.entries()) {
      const start = d((i * 7) % 90);
      const end = d(((i * 7) % 90) + [3, 12, 30, 45, 75][i % 5]);
      const engine = checkStay(h, { kind: 'fixed', start_date: start, end_date: end }, { cats: 0, dogs: 0 }, today);
      const quote = await fx.get(`/api/public/homes/${h.slug}/quote?check_in=${start}&check_out=${end}`);
      const detail = await fx.get(`/api/public/homes/${h.slug}?check_in=${start}&check_out=${end}`);
      expect(quote.body.available).toBe(engine.available);
      expect(detail.body.requested_stay.available).toBe(engine.available);
      if (engine.available) {
        checked += 1;
        expect(detail.body.display_price_with_discount).toBe(quote.body.display_price_with_discount);
        expect(detail.body.display_price_label).toBe(quote.body.display_price_label);
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
