/** buildOverviewBody: the availability overview's Elasticsearch request, pinned by its output for its main inputs. */
import type { Deps } from '../../../services/deps';
import type { MarketRecord } from '../../../services/kernel/inventory/records';
import { buildOverviewBody, OVERVIEW_SOURCE, type OverviewQuery } from '../../../services/search/overview/overview-query';
import { searchOverview } from '../../../services/search/overview/overview-search';

const cambridge = { slug: 'cambridge', name: 'Cambridge', state: 'MA', latitude: 42.37, longitude: -71.11 };
const market = { slug: 'boston', name: 'Boston', state: 'MA', cities: [cambridge] } as unknown as MarketRecord;
const inMarket: OverviewQuery = { location: { market, city: null }, filters: {}, sort: 'availability', page: 1, perPage: 50 };

const BOOKABLE = { term: { bookable: true } };
const TIE = { home_id: 'asc' };

describe('buildOverviewBody', () => {
  it('a market, page 1 of 50: the bookable homes of the market by earliest date, only the total and the overview fields kept', () => {
    expect(buildOverviewBody(inMarket)).toEqual({
      filter_path: ['hits.total', 'hits.hits._source'],
      track_total_hits: true,
      from: 0,
      size: 50,
      _source: OVERVIEW_SOURCE,
      query: { bool: { filter: [BOOKABLE, { term: { market_slug: 'boston' } }] } },
      sort: [{ earliest_available_date: { order: 'asc', missing: '_last' } }, TIE],
    });
    expect(OVERVIEW_SOURCE).toEqual([
      'home_id',
      'slug',
      'name',
      'bedrooms',
      'bathrooms',
      'sqft',
      'city_name',
      'minimum_nightly_stay',
      'earliest_available_date',
      'windows',
    ]);
  });

  it('a display city, page 3 of 250: the city clause, and the page starts past the first two', () => {
    const body = buildOverviewBody({ ...inMarket, location: { market, city: cambridge }, page: 3, perPage: 250 });
    expect(body.query).toEqual({ bool: { filter: [BOOKABLE, { term: { city_slug: 'cambridge' } }] } });
    expect([body.from, body.size]).toEqual([500, 250]);
  });

  it('the shared filters, then nights as a ceiling on the minimum stay, then the price limits on the base monthly rate', () => {
    const body = buildOverviewBody({
      ...inMarket,
      filters: { min_bedrooms: 1, max_bedrooms: 2, min_bathrooms: 1.5, pets: true, parking: false, deals_only: true },
      nights: 30,
      minPrice: 1500,
      maxPrice: 3000,
    });
    expect(body.query).toEqual({
      bool: {
        filter: [
          BOOKABLE,
          { term: { market_slug: 'boston' } },
          { range: { bedrooms: { gte: 1, lte: 2 } } },
          { range: { bathrooms: { gte: 1.5 } } },
          { term: { pets_allowed: true } },
          { term: { has_active_offer: true } },
          { range: { minimum_nightly_stay: { lte: 30 } } },
          { range: { monthly_rate: { gte: 1500, lte: 3000 } } },
        ],
      },
    });
  });

  it('one price limit alone leaves the other bound open', () => {
    expect(buildOverviewBody({ ...inMarket, maxPrice: 2000 }).query).toEqual({
      bool: { filter: [BOOKABLE, { term: { market_slug: 'boston' } }, { range: { monthly_rate: { gte: undefined, lte: 2000 } } }] },
    });
  });

  it('a point and a radius: a true circle, the default radius when none is given', () => {
    const at = { near_latitude: 42.36, near_longitude: -71.06 };
    expect(buildOverviewBody({ ...inMarket, filters: { ...at, near_radius_miles: 2 } }).query).toEqual({
      bool: { filter: [BOOKABLE, { term: { market_slug: 'boston' } }, { geo_distance: { distance: '2mi', location: { lat: 42.36, lon: -71.06 } } }] },
    });
    expect((buildOverviewBody({ ...inMarket, filters: at }).query?.bool?.filter as object[])[2]).toEqual({
      geo_distance: { distance: '5mi', location: { lat: 42.36, lon: -71.06 } },
    });
  });

  it('each sort: price by the base monthly rate, newest, best rated (unrated last), every order ending on the home id', () => {
    const sortOf = (sort: OverviewQuery['sort']) => buildOverviewBody({ ...inMarket, sort }).sort;
    expect(sortOf('price_asc')).toEqual([{ monthly_rate: 'asc' }, TIE]);
    expect(sortOf('price_desc')).toEqual([{ monthly_rate: 'desc' }, TIE]);
    expect(sortOf('newest')).toEqual([{ created_at: 'desc' }, TIE]);
    expect(sortOf('rating_desc')).toEqual([{ rating_average: { order: 'desc', missing: '_last' } }, { rating_count: 'desc' }, TIE]);
  });
});

describe('searchOverview, as sent', () => {
  it("routed to the market's shard, its own filter_path kept; an empty page (no hits.hits) reads as no homes", async () => {
    const sent: Array<Record<string, unknown>> = [];
    const es = { search: async (request: Record<string, unknown>) => (sent.push(request), { hits: { total: { value: 0 } } }) };
    const deps = {
      es,
      config: { homesAlias: 'homes' },
      esNodes: undefined,
      routingKeys: { keyOf: async (slug: string) => `key-of-${slug}` },
    } as unknown as Deps;
    const city = { ...inMarket, location: { market, city: cambridge } };
    expect(await searchOverview(deps, city)).toEqual({ total: 0, homes: [] });
    expect(sent).toEqual([expect.objectContaining({ index: 'homes', routing: 'key-of-boston', ...buildOverviewBody(city) })]);
  });
});
