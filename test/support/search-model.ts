/**
 * A naive model of the apartment search for tests: which homes of a test world answer a search,
 * in which order and at which price, computed from the canonical records with the stay engine
 * (checkStay, displayPrice), never from the index. The integration tests hold the service to it.
 */
import type { HomeRecord, IsoDate, MarketRecord, PropertyRecord } from '../../services/kernel/inventory/records';
import { earliestAvailableDate } from '../../services/kernel/engine/availability';
import { withBuildingRules } from '../../services/kernel/engine/building-rules';
import { offeredTiers } from '../../services/kernel/engine/flex';
import { displayPrice, referenceStay } from '../../services/kernel/engine/pricing';
import { checkStartOnly, checkStay } from '../../services/kernel/engine/stay-check';
import { addDays, daysBetween } from '../../services/kernel/engine/dates';
import type { DisplayPrice, StayRequest } from '../../services/kernel/engine/types';
import { haversineMiles } from '../../services/search/shared/distance';
import type { Collections } from '../../services/kernel/store/collections';

export interface ModelHome {
  home: HomeRecord;
  property: PropertyRecord;
  market: MarketRecord;
}

export interface World {
  homes: ModelHome[];
  markets: MarketRecord[];
  today: IsoDate;
}

/** Search arguments as the tool takes them (the subset the model understands: all of them). */
export type ModelArgs = Record<string, unknown> & {
  market?: string;
  scope?: { display_city?: string; market?: string };
  start_date?: string;
  end_date?: string;
  committed_nights?: number;
  /** A window of move-in dates: start_date to latest_start_date, each stay `nights` long (or the Flex tier). */
  latest_start_date?: string;
  nights?: number;
  min_price?: number;
  max_price?: number;
  price_unit?: 'per_night' | 'per_month';
  min_rating?: number;
  guest_rating?: 'EXCELLENT' | 'VERY_GOOD' | 'GOOD';
  sort_by?: string;
  near_latitude?: number;
  near_longitude?: number;
  near_radius_miles?: number;
  /** A map's viewport (search_apartments_on_map): the homes inside the rectangle. */
  sw_latitude?: number;
  sw_longitude?: number;
  ne_latitude?: number;
  ne_longitude?: number;
  zoom?: number;
};

export interface ModelResult {
  slug: string;
  id: string;
  price: DisplayPrice;
  stay: StayRequest;
  m: ModelHome;
}

const NO_PETS = { cats: 0, dogs: 0 };
const BUCKETS = { EXCELLENT: 4.5, VERY_GOOD: 4.0, GOOD: 3.5 } as const;

export async function loadWorld(c: Collections, today: IsoDate, inMarkets?: readonly string[]): Promise<World> {
  const markets = await c.markets.find({}).toArray();
  const properties = new Map((await c.properties.find({}).toArray()).map((p) => [p._id, p]));
  const bySlug = new Map(markets.map((m) => [m.slug, m]));
  const homes: ModelHome[] = [];
  // Some markets' homes only (the bench world's 100,000 are more than a test reads at once), a market at a time.
  const found =
    inMarkets === undefined ? [await c.homes.find({}).toArray()] : await Promise.all(inMarkets.map((m) => c.homes.find({ market_slug: m }).toArray()));
  for (const h of found.flat()) {
    const property = properties.get(h.property_id);
    const market = bySlug.get(h.market_slug);
    if (property && market) homes.push({ home: withBuildingRules(h, property), property, market });
  }
  return { homes, markets, today };
}

/** The display city with the most homes, and its market: the richest place to search in a test world. */
export function busiestCity(world: World): { city: string; market: string } {
  const counts = new Map<string, number>();
  for (const h of world.homes) counts.set(h.home.city_slug, (counts.get(h.home.city_slug) ?? 0) + 1);
  const city = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  return { city, market: world.markets.find((m) => m.cities.some((c) => c.slug === city))!.slug };
}

/** The place named by the location arguments: precedence scope.display_city, scope.market, market. */
export function placeOf(world: World, args: ModelArgs): { market: string; city: string | null } | null {
  const slug = args.scope?.display_city ?? args.scope?.market ?? args.market;
  // A map's viewport alone places the search anywhere.
  if (slug === undefined) return null;
  // A slug that names a market means the whole market, unless it is passed as scope.display_city.
  const whole = args.scope?.display_city === undefined ? world.markets.find((m) => m.slug === slug) : undefined;
  if (whole) return { market: whole.slug, city: null };
  const market = world.markets.find((m) => m.cities.some((c) => c.slug === slug))!;
  return { market: market.slug, city: slug };
}

function flagsHold(m: ModelHome, args: ModelArgs, today: IsoDate): boolean {
  const { home, property } = m;
  const offer = home.special_offer;
  const flags: Record<string, boolean> = {
    pets: home.cats_allowed || home.dogs_allowed,
    cats: home.cats_allowed,
    dogs: home.dogs_allowed,
    parking: home.has_parking,
    pool: property.has_pool,
    gym: property.has_gym,
    in_unit_laundry: home.laundry_type === 'In Unit',
    air_conditioned: home.air_conditioned,
    balcony: home.has_balcony,
    elevator: property.has_elevator,
    first_floor_unit: home.floor <= 1,
    self_check_in: home.self_check_in,
    deals_only: offer !== null && offer.end_date > today,
  };
  return Object.entries(flags).every(([k, v]) => args[k] !== true || v);
}

/** The stay the model prices for a home, or null when the home cannot answer the dated search. */
function stayFor(m: ModelHome, args: ModelArgs, today: IsoDate): StayRequest | null {
  const { home } = m;
  if (args.start_date === undefined) return referenceStay(home, today);
  const start = args.start_date;
  if (start < today) return null;
  if (args.end_date === undefined) return checkStartOnly(home, start, today).available ? referenceStay(home, today) : null;
  if (args.end_date === 'indefinite') {
    const tiers = offeredTiers(home)
      .map((t) => ({ kind: 'flex', start_date: start, committed_nights: t.committed_nights }) as const)
      .filter((s) => args.committed_nights === undefined || s.committed_nights === args.committed_nights)
      .filter((s) => checkStay(home, s, NO_PETS, today).available);
    // Without a tier, the cheapest tier the home can hold (the shorter on a tie).
    tiers.sort(
      (a, b) =>
        displayPrice(home, a).display_price_with_discount - displayPrice(home, b).display_price_with_discount || a.committed_nights - b.committed_nights,
    );
    return tiers[0] ?? null;
  }
  const stay: StayRequest = { kind: 'fixed', start_date: start, end_date: args.end_date };
  return checkStay(home, stay, NO_PETS, today).available ? stay : null;
}

/**
 * A window of move-in dates, by brute force: every start from start_date (not before today) to
 * latest_start_date, each stay checked and priced on its own; the cheapest that fits the limits,
 * the earliest among equals.
 */
function windowChoice(m: ModelHome, args: ModelArgs, today: IsoDate, ignorePrice: boolean): { stay: StayRequest; price: DisplayPrice } | null {
  let best: { stay: StayRequest; price: DisplayPrice } | null = null;
  for (let start = args.start_date as string; start <= (args.latest_start_date as string); start = addDays(start, 1)) {
    if (start < today) continue;
    const stay: StayRequest =
      args.end_date === 'indefinite'
        ? { kind: 'flex', start_date: start, committed_nights: args.committed_nights as number }
        : { kind: 'fixed', start_date: start, end_date: addDays(start, args.nights as number) };
    if (!checkStay(m.home, stay, NO_PETS, today).available) continue;
    const price = displayPrice(m.home, stay);
    if (!ignorePrice && !limitsHold(price, args)) continue;
    if (best === null || price.display_price_with_discount < best.price.display_price_with_discount) best = { stay, price };
  }
  return best;
}

/** Price limits in the unit of the shown price (search-params.ts displayLimits, restated). */
function limitsHold(price: DisplayPrice, args: ModelArgs): boolean {
  const shownMonthly = price.is_price_monthly;
  const unit = args.price_unit ?? (shownMonthly ? 'per_month' : 'per_night');
  const p = price.display_price_with_discount;
  // A nightly limit against a monthly price is on the price's thirtieth, cents dropped.
  const compared = (unit === 'per_month') === shownMonthly ? p : unit === 'per_night' ? Math.floor(p / 30) : p * 30;
  if (args.min_price !== undefined && compared < args.min_price) return false;
  if (args.max_price !== undefined && compared > args.max_price) return false;
  return true;
}

/** Every home that answers the search, unordered, with the price it must show. */
const firstDays = new WeakMap<HomeRecord, { today: IsoDate; day: IsoDate | null }>();

/** earliestAvailableDate, computed once per home and day (a world's homes are read by many searches). */
function firstBookableDay(home: HomeRecord, today: IsoDate): IsoDate | null {
  const kept = firstDays.get(home);
  if (kept?.today === today) return kept.day;
  const day = earliestAvailableDate(home, today);
  firstDays.set(home, { today, day });
  return day;
}

export function expectedResults(world: World, args: ModelArgs, opts: { ignorePrice?: boolean; viewportSlack?: number } = {}): ModelResult[] {
  const { today } = world;
  const place = placeOf(world, args);
  const threshold = Math.max(args.min_rating ?? 0, args.guest_rating ? BUCKETS[args.guest_rating] : 0) || null;
  const out: ModelResult[] = [];
  for (const m of world.homes) {
    const { home, property } = m;
    // Every rule must hold; the cheap ones are read first, and a home's first bookable day once a world.
    if (!home.published || home.deleted_at !== null) continue;
    if (place !== null && (home.market_slug !== place.market || (place.city !== null && home.city_slug !== place.city))) continue;
    if (args.sw_latitude !== undefined && !insideViewport(args, property, opts.viewportSlack ?? 0)) continue;
    if (args.min_bedrooms !== undefined && home.bedrooms < (args.min_bedrooms as number)) continue;
    if (args.max_bedrooms !== undefined && home.bedrooms > (args.max_bedrooms as number)) continue;
    if (args.min_bathrooms !== undefined && home.bathrooms < (args.min_bathrooms as number)) continue;
    if (threshold !== null && (property.rating === null || property.rating.average < threshold)) continue;
    if (args.near_latitude !== undefined) {
      const d = haversineMiles({ lat: args.near_latitude, lon: args.near_longitude as number }, { lat: property.latitude, lon: property.longitude });
      if (d > (args.near_radius_miles ?? 5)) continue;
    }
    if (firstBookableDay(home, today) === null) continue;
    if (!flagsHold(m, args, today)) continue;
    if (args.latest_start_date !== undefined) {
      const chosen = windowChoice(m, args, today, opts.ignorePrice === true);
      if (chosen !== null) out.push({ slug: home.slug, id: home._id, ...chosen, m });
      continue;
    }
    const stay = stayFor(m, args, today);
    if (stay === null) continue;
    const price = displayPrice(home, stay);
    if (!opts.ignorePrice && !limitsHold(price, args)) continue;
    out.push({ slug: home.slug, id: home._id, price, stay, m });
  }
  return out;
}

/** Whether a building lies inside the viewport's rectangle, edges included; `slack` degrees wider (or narrower, below 0). */
export function insideViewport(args: ModelArgs, point: { latitude: number; longitude: number }, slack = 0): boolean {
  return (
    point.latitude >= (args.sw_latitude as number) - slack &&
    point.latitude <= (args.ne_latitude as number) + slack &&
    point.longitude >= (args.sw_longitude as number) - slack &&
    point.longitude <= (args.ne_longitude as number) + slack
  );
}

/** Whether `a` may come before `b` in the search's order (ties are broken by home id). */
export function orderedPair(sort: string, a: ModelResult, b: ModelResult, today: IsoDate, windowed = false): boolean {
  const cmp = (x: number | string, y: number | string) => (x < y ? -1 : x > y ? 1 : 0);
  const key = (r: ModelResult): number => {
    switch (sort) {
      case 'price_desc':
        return -r.price.display_price_with_discount;
      case 'price_asc':
        return r.price.display_price_with_discount;
      default:
        return 0;
    }
  };
  let c = 0;
  if (sort === 'price_asc' || sort === 'price_desc') c = key(a) - key(b);
  if (sort === 'availability' && windowed) {
    // A window of move-in dates: by the chosen stay's start.
    c = cmp(a.stay.start_date, b.stay.start_date);
  } else if (sort === 'availability') {
    const ea = earliestAvailableDate(a.m.home, today) ?? '9999-12-31';
    const eb = earliestAvailableDate(b.m.home, today) ?? '9999-12-31';
    c = cmp(ea, eb);
  }
  if (sort === 'newest') c = cmp(b.m.home.created_at.toISOString(), a.m.home.created_at.toISOString());
  if (sort === 'rating_desc') {
    const ra = a.m.property.rating;
    const rb = b.m.property.rating;
    c = (ra === null ? 1 : 0) - (rb === null ? 1 : 0) || cmp(rb?.average ?? 0, ra?.average ?? 0) || cmp(rb?.count ?? 0, ra?.count ?? 0);
  }
  return c < 0 || (c === 0 && a.id < b.id);
}

/** Nights of a fixed stay, for labels in test names. */
export function nightsOf(args: ModelArgs): number | null {
  return typeof args.start_date === 'string' && typeof args.end_date === 'string' && args.end_date !== 'indefinite'
    ? daysBetween(args.start_date, args.end_date)
    : null;
}

export { addDays };
