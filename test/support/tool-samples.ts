import type { Collections } from '../../services/kernel/store/collections';
import { addDays } from '../../services/kernel/engine/dates';

/**
 * Valid arguments for every tool of the registry, drawn from a source of real slugs and dates: one
 * place that the end-to-end tests (output schemas, store reads, real clients) and the benchmark's
 * mixed load share. A tool added to the registry without an entry here fails those tests.
 */
export interface SampleSource {
  /** A slug of an existing, published home. */
  slug(): string;
  /** Usually an existing slug; sometimes one that does not exist (benchmarks). */
  slugOrUnknown(): string;
  marketSlug(): string;
  citySlug(): string;
  /** A stay that starts within the next months. */
  stay(): { start: string; end: string };
  pick<T>(items: readonly T[]): T;
}

export type ToolSample = (s: SampleSource) => Record<string, unknown>;

let watchers = 0;

export const TOOL_SAMPLES: Record<string, ToolSample> = {
  list_markets_tool: () => ({}),
  get_policies_faq_tool: (s) => s.pick([{}, { topic: 'pets' }, { topic: 'security_deposit' }]),
  get_apartment_tool: (s) => {
    const stay = s.stay();
    return s.pick([{ slug: s.slugOrUnknown() }, { slug: s.slugOrUnknown(), start_date: stay.start, end_date: stay.end }]);
  },
  get_flex_options_tool: (s) => ({ home_slug: s.slugOrUnknown() }),
  get_market_filters_tool: (s) => ({ market: s.pick([s.marketSlug(), s.citySlug()]) }),
  get_market_info: (s) => s.pick([{ market: s.marketSlug() }, { market: s.citySlug(), home_slug: s.slug() }]),
  compare_apartments_tool: (s) => ({ home_slugs: [s.slug(), s.slugOrUnknown(), s.slug()].filter((v, i, a) => a.indexOf(v) === i) }),
  availability_overview_tool: (s) =>
    s.pick([
      { market: s.marketSlug() },
      { scope: { display_city: s.citySlug() }, include_ranges: true, per_page: 20 },
      { market: s.citySlug(), nights: 30, sort_by: 'price_asc', min_bedrooms: 1 },
    ]),
  search_apartments_tool: (s) => {
    const stay = s.stay();
    return s.pick([
      { market: s.marketSlug() },
      { market: s.citySlug(), start_date: stay.start, end_date: stay.end, min_bedrooms: 1, max_price: 6000, price_unit: 'per_month' },
      { scope: { display_city: s.citySlug() }, start_date: stay.start, end_date: 'indefinite', sort_by: 'price_desc', include_hero_images: false },
      { market: s.marketSlug(), start_date: stay.start, end_date: stay.end, sort_by: 'rating_desc', page: 2, per_page: 10 },
    ]);
  },
  search_apartments_on_map: (s) => {
    const stay = s.stay();
    return s.pick([
      { market: s.citySlug(), start_date: stay.start, end_date: stay.end },
      { market: s.marketSlug(), pets: true, sort_by: 'newest' },
      // A viewport over the contiguous US standing in for the market (clusters when more than 250 match).
      { sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, ne_longitude: -66, zoom: 4, start_date: stay.start, end_date: stay.end },
    ]);
  },
  // The map widget's own tool: a viewport, with or without the search's filters (what a pan or zoom sends).
  search_map_viewport: (s) => {
    const stay = s.stay();
    return s.pick([
      { sw_latitude: 24, sw_longitude: -125, ne_latitude: 50, ne_longitude: -66, zoom: 4 },
      { sw_latitude: 30, sw_longitude: -100, ne_latitude: 42, ne_longitude: -80, zoom: 5, start_date: stay.start, end_date: stay.end, min_bedrooms: 1 },
    ]);
  },
  search_properties_tool: (s) => {
    const stay = s.stay();
    return s.pick([
      { market: s.marketSlug() },
      { market: s.citySlug(), start_date: stay.start, end_date: stay.end, min_bedrooms: 1, max_price: 6000, sort_by: 'price_asc' },
      { scope: { display_city: s.citySlug() }, start_date: stay.start, end_date: 'indefinite', committed_nights: 180, guest_rating: 'GOOD' },
      { market: s.marketSlug(), sort_by: 'rating_desc', page: 2, per_page: 5, min_square_footage: 600 },
    ]);
  },
  booking_intent_tool: (s) => {
    const stay = s.stay();
    return s.pick([
      { email: `guest-${s.pick([1, 2, 3, 4, 5, 6, 7, 8])}@example.com`, guest_consent: true },
      {
        email: `guest-${s.pick([1, 2, 3])}@example.com`,
        phone: '+1 415 555 0100',
        name: 'Sample Guest',
        home_slug: s.slug(),
        start_date: stay.start,
        end_date: stay.end,
        guest_consent: true,
      },
    ]);
  },
  // A fresh email each time: an email has at most 10 live watches.
  watch_search_tool: (s) => {
    const stay = s.stay();
    return {
      search: s.pick([
        { market: s.citySlug(), min_bedrooms: 2 },
        { market: s.marketSlug(), start_date: stay.start, end_date: stay.end, max_price: 6000 },
      ]),
      email: `watcher-${++watchers}@example.com`,
      guest_consent: true,
    };
  },
  get_quote_tool: (s) => {
    const stay = s.stay();
    return { home_slug: s.slugOrUnknown(), start_date: stay.start, end_date: stay.end };
  },
};

/** Tools of `names` that have no sample yet. */
export function toolsWithoutSamples(names: readonly string[]): string[] {
  return names.filter((n) => !TOOL_SAMPLES[n]);
}

/**
 * A sample source over a test world's real homes and markets, cycling deterministically;
 * `unknownEvery` > 0 makes every n-th slugOrUnknown() a slug that does not exist.
 */
export async function worldSamples(
  world: { mongo: { collections: Collections }; today: string },
  opts: { homes?: number; unknownEvery?: number } = {},
): Promise<SampleSource> {
  const homes = await world.mongo.collections.homes.find({ published: true, deleted_at: null }, { limit: opts.homes ?? 40 }).toArray();
  const markets = await world.mongo.collections.markets.find({}).toArray();
  const cities = markets.flatMap((m) => m.cities);
  let i = 0;
  const pick = <T>(items: readonly T[]): T => items[i++ % items.length];
  return {
    slug: () => pick(homes).slug,
    slugOrUnknown: () => (opts.unknownEvery && ++i % opts.unknownEvery === 0 ? `no-such-home-${i}` : pick(homes).slug),
    marketSlug: () => pick(markets).slug,
    citySlug: () => pick(cities).slug,
    stay: () => {
      const start = addDays(world.today, (i * 7) % 120);
      return { start, end: addDays(start, 2 + ((i * 13) % 90)) };
    },
    pick,
  };
}
