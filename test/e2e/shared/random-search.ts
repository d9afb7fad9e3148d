/**
 * Random apartment searches over a generated world, as the randomized tests draw them: a place, a stay
 * of each kind, filters, rating thresholds, a radius and price limits drawn from the prices the naive
 * model finds (so they cut), sometimes in the other unit; and their GET query string.
 */
import { addDays } from '../../../services/kernel/engine/dates';
import { expectedResults, type ModelArgs, type World } from '../../support/search-model';

export const FLAGS = [
  'pets',
  'cats',
  'dogs',
  'parking',
  'pool',
  'gym',
  'in_unit_laundry',
  'air_conditioned',
  'balcony',
  'elevator',
  'first_floor_unit',
  'self_check_in',
  'deals_only',
];
const SORTS = ['price_asc', 'price_desc', 'availability', 'newest', 'rating_desc'];

/**
 * A display city as the GET search can ask for it: GET has no `scope` and sends the slug as `market`, so a
 * city whose slug also names its market (denver, the city, in denver, the market) is the whole market there.
 */
function displayCity(world: World, slug: string): ModelArgs {
  return world.markets.some((m) => m.slug === slug) ? { market: slug } : { scope: { display_city: slug } };
}

/** A random search; price limits are drawn from the prices the model finds, so they cut. */
export function randomSearch(world: World, rnd: () => number): ModelArgs {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const market = pick(world.markets);
  const args: ModelArgs =
    rnd() < 0.5 ? { market: market.slug } : rnd() < 0.5 ? { market: pick(market.cities).slug } : displayCity(world, pick(market.cities).slug);
  const start = addDays(world.today, int(0, 240));
  const kind = pick(['undated', 'start_only', 'short', 'long', 'long', 'flex_tier', 'flex_any']);
  if (kind === 'start_only') args.start_date = start;
  if (kind === 'short' || kind === 'long') Object.assign(args, { start_date: start, end_date: addDays(start, kind === 'short' ? int(1, 29) : int(30, 200)) });
  if (kind === 'flex_tier') Object.assign(args, { start_date: start, end_date: 'indefinite', committed_nights: pick([180, 270, 365]) });
  if (kind === 'flex_any') Object.assign(args, { start_date: start, end_date: 'indefinite' });
  for (let i = int(0, 3); i > 0; i--) args[pick(FLAGS)] = true;
  if (rnd() < 0.3) args.min_bedrooms = int(0, 2);
  if (rnd() < 0.2) args.max_bedrooms = int(1, 3);
  if (rnd() < 0.15) args.min_bathrooms = pick([1, 1.5, 2]);
  if (rnd() < 0.15) args.min_rating = pick([3.2, 3.9, 4.4]);
  if (rnd() < 0.15) args.guest_rating = pick(['GOOD', 'VERY_GOOD', 'EXCELLENT'] as const);
  if (rnd() < 0.2) {
    const h = pick(world.homes);
    Object.assign(args, { near_latitude: h.property.latitude, near_longitude: h.property.longitude, near_radius_miles: pick([0.5, 1, 2.5, 5, 8]) });
  }
  if (rnd() < 0.6) {
    const prices = expectedResults(world, args, { ignorePrice: true })
      .map((r) => r.price.display_price_with_discount)
      .sort((a, b) => a - b);
    if (prices.length > 0) {
      // A quantile of the prices, often a home's exact price give or take a dollar: limits at the edge of a band.
      const at = (q: number) => prices[Math.min(prices.length - 1, Math.floor(q * prices.length))] + (rnd() < 0.6 ? int(-2, 2) : 0);
      const monthly = expectedResults(world, args, { ignorePrice: true })[0]?.price.is_price_monthly ?? true;
      // Sometimes the limit in the other unit (price_unit), converted as the service converts it.
      const other = rnd() < 0.25;
      const unit = other ? (monthly ? 'per_night' : 'per_month') : undefined;
      const conv = (v: number) => (unit === undefined ? v : unit === 'per_night' ? Math.round(v / 30) : v * 30);
      if (rnd() < 0.7) args.max_price = conv(at(0.2 + 0.6 * rnd()));
      if (rnd() < 0.4) args.min_price = Math.min(conv(at(0.4 * rnd())), (args.max_price as number | undefined) ?? Infinity);
      if (unit) args.price_unit = unit;
    }
  }
  if (rnd() < 0.8) args.sort_by = pick(SORTS);
  return args;
}

export function searchQuery(args: ModelArgs, page: number, perPage: number): string {
  const q = new URLSearchParams();
  const names: Record<string, string> = { start_date: 'check_in', end_date: 'check_out', min_bedrooms: 'bedrooms' };
  for (const [k, v] of Object.entries(args)) {
    if (k === 'scope') q.set('market', (v as { display_city: string }).display_city);
    else q.set(names[k] ?? k, String(v));
  }
  q.set('page', String(page));
  q.set('per_page', String(perPage));
  return q.toString();
}
