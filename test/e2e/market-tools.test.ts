/**
 * Market filters, market info and compare through real HTTP and the SDK's MCP client, on generated
 * homes indexed in the real Elasticsearch (docs/contract.md, "get_market_filters_tool", "get_market_info",
 * "compare_apartments_tool"). Expected values are computed from the indexed documents themselves.
 */
import { startFixture, type Fixture } from '../support/fixture';
import { indexedHomes } from '../support/indexed';
import type { HomeDocument } from '../../services/kernel/store/home-document';
import { FLAG_FIELDS } from '../../services/search/shared/filters';
import { SEARCH_SORTS } from '../../services/search/shared/sorts';

let fx: Fixture;
let docs: HomeDocument[];
let marketSlug: string;
let citySlug: string;

beforeAll(async () => {
  fx = await startFixture({ homes: 220 });
  ({ docs, marketSlug, citySlug } = await indexedHomes(fx));
});

afterAll(async () => {
  await fx?.close();
});

const inMarket = (): HomeDocument[] => docs.filter((d) => d.market_slug === marketSlug);
const sorted = (xs: number[]): number[] => [...new Set(xs)].sort((a, b) => a - b);

async function callTool(name: string, args: Record<string, unknown>) {
  const client = await fx.mcp();
  return client.callTool({ name, arguments: args });
}

function errorOf(result: Awaited<ReturnType<typeof callTool>>): { code: string; message: string } {
  expect(result.isError).toBe(true);
  return JSON.parse((result.content as Array<{ text: string }>)[0].text).error;
}

describe('GET /api/public/market-filters', () => {
  it('lists what the live inventory of the market holds: cities, bedrooms, bathrooms, rent range, neighborhoods', async () => {
    const { status, body } = await fx.get(`/api/public/market-filters?market=${marketSlug}`);
    expect(status).toBe(200);
    const homes = inMarket();
    expect(body.market).toEqual({ slug: marketSlug });
    expect(body.cities.map((c: { slug: string }) => c.slug).sort()).toEqual([...new Set(homes.map((h) => h.city_slug))].sort());
    expect(body.bedrooms).toEqual(sorted(homes.map((h) => h.bedrooms)));
    expect(body.min_bathrooms).toEqual(sorted(homes.map((h) => h.bathrooms)));
    expect(body.price_range).toEqual({ min: Math.min(...homes.map((h) => h.monthly_rate)), max: Math.max(...homes.map((h) => h.monthly_rate)) });
    expect(body.neighborhoods.map((n: { id: string }) => n.id).sort()).toEqual([...new Set(homes.map((h) => h.neighborhood_id))].sort());
    expect(body.sort_options).toEqual([...SEARCH_SORTS]);
  });

  it('offers an amenity filter exactly when an apartment matches it, named by its search argument', async () => {
    const { body } = await fx.get(`/api/public/market-filters?market=${marketSlug}`);
    const offered = body.amenities.map((a: { filter: string }) => a.filter).sort();
    const matching = Object.entries(FLAG_FIELDS)
      .filter(([, field]) => inMarket().some((h) => (h as unknown as Record<string, unknown>)[field] === true))
      .map(([arg]) => arg)
      .sort();
    expect(offered).toEqual(matching);
    for (const a of body.amenities) expect(a.label).toEqual(expect.any(String));
  });

  it('answers for the whole market when given a display-city slug', async () => {
    const byCity = await fx.get(`/api/public/market-filters?market=${citySlug}`);
    const byMarket = await fx.get(`/api/public/market-filters?market=${marketSlug}`);
    expect(byCity.body).toEqual(byMarket.body);
  });

  it('answers 404 with the error object for an unknown slug, and 400 without one', async () => {
    const unknown = await fx.get('/api/public/market-filters?market=atlantis');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('market_not_found');
    const missing = await fx.get('/api/public/market-filters');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toEqual({ code: 'invalid_parameters', message: expect.any(String) });
  });

  it('returns the same JSON over the tool server as over GET, and an error result for an unknown slug', async () => {
    const get = await fx.get(`/api/public/market-filters?market=${marketSlug}`);
    const mcp = await callTool('get_market_filters_tool', { market: marketSlug });
    expect(mcp.structuredContent).toEqual(get.body);
    expect(errorOf(await callTool('get_market_filters_tool', { market: 'atlantis' })).code).toBe('market_not_found');
  });
});

describe('GET /api/public/market-info', () => {
  it('counts the apartments search can return and averages the base monthly rent by bedroom count, unweighted', async () => {
    const { status, body } = await fx.get(`/api/public/market-info?market=${marketSlug}`);
    expect(status).toBe(200);
    const homes = inMarket();
    expect(body.inventory_count).toBe(homes.length);
    const expected = sorted(homes.map((h) => h.bedrooms)).map((bedrooms) => {
      const rates = homes.filter((h) => h.bedrooms === bedrooms).map((h) => h.monthly_rate);
      return { bedrooms, average_monthly_rent: Math.round(rates.reduce((a, b) => a + b, 0) / rates.length), apartments: rates.length };
    });
    expect(body.average_rent_by_bedroom).toEqual(expected);
    expect(body.home).toBeUndefined();
  });

  it('names the neighborhoods with the most availability first', async () => {
    const { body } = await fx.get(`/api/public/market-info?market=${marketSlug}`);
    const counts = new Map<string, number>();
    for (const h of inMarket()) counts.set(h.neighborhood_id, (counts.get(h.neighborhood_id) ?? 0) + 1);
    const list = body.popular_neighborhoods as Array<{ id: string; available_apartments: number }>;
    expect(list.length).toBe(Math.min(5, counts.size));
    expect(list[0].available_apartments).toBe(Math.max(...counts.values()));
    for (const n of list) expect(n.available_apartments).toBe(counts.get(n.id));
    for (let i = 1; i < list.length; i++) expect(list[i - 1].available_apartments).toBeGreaterThanOrEqual(list[i].available_apartments);
  });

  it("adds the home's neighborhood description, place and scores when a home is given", async () => {
    const doc = inMarket()[0];
    const { status, body } = await fx.get(`/api/public/market-info?market=${citySlug}&home=${doc.slug}`);
    expect(status).toBe(200);
    const market = (await fx.mongo.collections.markets.findOne({ _id: doc.market_slug }))!;
    const property = (await fx.mongo.collections.properties.findOne({ _id: doc.property_id }))!;
    const n = market.neighborhoods.find((x) => x.id === doc.neighborhood_id)!;
    expect(body.market.slug).toBe(marketSlug);
    expect(body.home.slug).toBe(doc.slug);
    expect(body.home.neighborhood).toEqual({ id: n.id, slug: n.slug, name: n.name, description: n.description });
    expect(body.home.walk_score).toBe(property.scores.walk_score);
    expect(body.home.transit_score).toBe(property.scores.transit_score);
    expect(body.home.bike_score).toBe(property.scores.bike_score);
    const mcp = await callTool('get_market_info', { market: citySlug, home_slug: doc.slug });
    expect(mcp.structuredContent).toEqual(body);
  });

  it('answers 404 for an unknown home or market, and an error result on the tool server', async () => {
    expect((await fx.get(`/api/public/market-info?market=${marketSlug}&home=no-such-home`)).status).toBe(404);
    expect((await fx.get('/api/public/market-info?market=atlantis')).body.error.code).toBe('market_not_found');
    expect(errorOf(await callTool('get_market_info', { market: 'atlantis' })).code).toBe('market_not_found');
    expect(errorOf(await callTool('get_market_info', { market: marketSlug, home_slug: 'no-such-home' })).code).toBe('home_not_found');
  });

  it('gives a city slug the same statistics as its market', async () => {
    const byMarket = (await fx.get(`/api/public/market-info?market=${marketSlug}`)).body;
    const byCity = await fx.get(`/api/public/market-info?market=${citySlug}`);
    expect(byCity.status).toBe(200);
    expect(byCity.body).toEqual(byMarket);
  });
});

describe('compare_apartments_tool', () => {
  it('compares the apartments in the order given, lists unknown slugs in not_found, and prices as the apartment read does', async () => {
    const [a, b] = docs;
    const result = await callTool('compare_apartments_tool', { home_slugs: [b.slug, 'no-such-home', a.slug] });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as { apartments: any[]; not_found: string[] };
    expect(data.not_found).toEqual(['no-such-home']);
    expect(data.apartments.map((x) => x.slug)).toEqual([b.slug, a.slug]);
    for (const x of data.apartments) {
      const read = await fx.get(`/api/public/homes/${x.slug}`);
      expect(x.display_price_with_discount).toBe(read.body.display_price_with_discount);
      expect(x.media.length).toBeLessThanOrEqual(6);
      expect(x.media).toEqual(read.body.media);
      if (x.media.length) {
        expect(x.hero_image_url).toBe(x.media[0].url);
        expect(x.widget_hero_image_url).toBe(x.media[0].widget_url);
      }
    }
  });

  it('is an error when no slug resolves, and when fewer than 2 or more than 4 are given', async () => {
    expect(errorOf(await callTool('compare_apartments_tool', { home_slugs: ['nope-1', 'nope-2'] })).code).toBe('no_home_resolved');
    expect(errorOf(await callTool('compare_apartments_tool', { home_slugs: [docs[0].slug] })).code).toBe('invalid_parameters');
    const five = docs.slice(0, 5).map((d) => d.slug);
    expect(errorOf(await callTool('compare_apartments_tool', { home_slugs: five })).code).toBe('invalid_parameters');
  });

  it('embeds each hero photo with _meta.home_slug only when asked', async () => {
    const slugs = docs
      .filter((d) => d.hero_photo_id)
      .slice(0, 2)
      .map((d) => d.slug);
    const plain = await callTool('compare_apartments_tool', { home_slugs: slugs });
    expect((plain.content as Array<{ type: string }>).filter((c) => c.type === 'image')).toEqual([]);
    const withImages = await callTool('compare_apartments_tool', { home_slugs: slugs, include_hero_images: true });
    const images = (withImages.content as Array<{ type: string; mimeType?: string; _meta?: { home_slug?: string } }>).filter((c) => c.type === 'image');
    expect(images.map((i) => i._meta?.home_slug)).toEqual(slugs);
    for (const i of images) expect(i.mimeType).toBe('image/jpeg');
  });
});
