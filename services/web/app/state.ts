/**
 * The page state, all of it in the query string so that a search can be shared:
 * parsed from and written to `location.search`, nothing kept elsewhere. Pure.
 */

import { addDays } from '../../kernel/engine/dates';
import { NIGHTS_PER_MONTH } from '../../kernel/engine/labels';
import { COMPARED_APARTMENTS } from '../../kernel/limits/pages';
import { MAX_Q_CHARS } from '../../kernel/limits/typed-text';
import { MAX_WINDOW_NIGHTS } from '../../kernel/limits/stay-window';
import { alignViewport } from '../../kernel/map-tiles';
import { FILTER_NAMES, RATING_NAMES, type Filter, type Rating } from './facets';
import { formatShape, parseShape, type Vertex } from './shape';

export type View = 'search' | 'home' | 'compare' | 'policies';

/** The map area a person panned or zoomed to: it stands in for the market in the viewport search. */
export interface Area {
  swLatitude: number;
  swLongitude: number;
  neLatitude: number;
  neLongitude: number;
  zoom: number;
}

/** A flexible search's length of stay, as the person gave it: nights, or months of 30 nights. */
export interface StayLength {
  count: number;
  unit: 'nights' | 'months';
}

export interface PageState {
  view: View;
  /** A market or display-city slug: the place searched, or the market of the neighborhood or building. */
  market: string;
  /** `market` is a display city searched alone (the API's display_city, the URL's too), even when a market has its slug. */
  cityAlone: boolean;
  /** A neighborhood of the market (its slug) the search keeps to, or ''. */
  neighborhood: string;
  /** A building of the market (its slug) the search keeps to, or ''; a place is one of the two, never both. */
  building: string;
  /** The words to find (the API's q), or '' (no word search). */
  q: string;
  /** YYYY-MM-DD or '' (an undated search). */
  checkIn: string;
  checkOut: string;
  /** A Flex tier (committed nights): the stay is then open-ended from checkIn. */
  flex: number | null;
  /** Flexible dates: the latest move-in (checkIn is then the earliest), or ''. */
  latestCheckIn: string;
  /** Flexible dates: the length of the stay (a Flex tier takes its place), or null. */
  length: StayLength | null;
  /** Flexible dates: the move-in of the best stay a result opened the apartment with, or ''. */
  moveIn: string;
  bedrooms: number | null;
  /** Monthly USD, compared with the all-in price. */
  maxPrice: number | null;
  /** The boolean filters set, in the form's order (./facets.ts, FILTERS). */
  filters: Filter[];
  /** The lowest guest rating bucket, or any. */
  rating: Rating | null;
  area: Area | null;
  /** The shape drawn on the map: only homes inside it match. */
  polygon: Vertex[] | null;
  page: number;
  /** The apartment shown on the apartment view. */
  home: string;
  cats: number;
  dogs: number;
  /** Up to four homes side by side. */
  compare: string[];
}

/** Homes the compare view holds: as many as compare_apartments_tool takes. */
export const COMPARE_LIMIT = COMPARED_APARTMENTS.max;
export const FLEX_TIERS = [180, 270, 365] as const;
/** Flexible dates: the longest length in whole months (of NIGHTS_PER_MONTH nights) within MAX_WINDOW_NIGHTS. */
export const STAY_MONTHS_MAX = Math.floor(MAX_WINDOW_NIGHTS / NIGHTS_PER_MONTH);
const VIEWS: readonly View[] = ['search', 'home', 'compare', 'policies'];
/** A filter's key in the page URL: its API name, but for cats and dogs, whose names the quote's pet counts already take. */
const filterKey = (name: Filter): string => (name === 'cats' || name === 'dogs' ? `${name}_allowed` : name);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export const EMPTY_STATE: PageState = {
  view: 'search',
  market: '',
  cityAlone: false,
  neighborhood: '',
  building: '',
  q: '',
  checkIn: '',
  checkOut: '',
  flex: null,
  latestCheckIn: '',
  length: null,
  moveIn: '',
  bedrooms: null,
  maxPrice: null,
  filters: [],
  rating: null,
  area: null,
  polygon: null,
  page: 1,
  home: '',
  cats: 0,
  dogs: 0,
  compare: [],
};

function count(raw: string | null, max: number): number | null {
  if (raw === null || !/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return n <= max ? n : null;
}

function parseArea(raw: string | null): Area | null {
  if (!raw) return null;
  const parts = raw.split(',').map(Number);
  if (parts.length !== 5 || parts.some((n) => !Number.isFinite(n))) return null;
  const [swLatitude, swLongitude, neLatitude, neLongitude, zoom] = parts;
  if (!Number.isInteger(zoom) || zoom < 0 || zoom > 20) return null;
  if (swLatitude > neLatitude || swLongitude > neLongitude) return null;
  return { swLatitude, swLongitude, neLatitude, neLongitude, zoom };
}

const date = (raw: string | null): string => (raw !== null && DATE.test(raw) ? raw : '');

/** q as the API takes it: trimmed, at most MAX_Q_CHARS, holding a letter or a digit; else no word search. */
export function readWords(raw: string | null): string {
  const text = (raw ?? '').trim();
  return text.length <= MAX_Q_CHARS && /[\p{L}\p{N}]/u.test(text) ? text : '';
}

/** The nights of a length given in nights or months. */
export const lengthNights = (length: StayLength): number => (length.unit === 'months' ? length.count * NIGHTS_PER_MONTH : length.count);

function parseLength(q: URLSearchParams): StayLength | null {
  const nights = count(q.get('nights'), MAX_WINDOW_NIGHTS);
  if (nights) return { count: nights, unit: 'nights' };
  const months = count(q.get('months'), STAY_MONTHS_MAX);
  return months ? { count: months, unit: 'months' } : null;
}

/** Reads a query string; anything malformed is left at its default rather than refused. */
export function parseState(search: string): PageState {
  const q = new URLSearchParams(search);
  const view = q.get('view') as View | null;
  const flex = count(q.get('flex'), 1100);
  // A slug as the API reads one: trimmed and in lower case (a link typed or shared as `market=Boston` still opens Boston).
  const slug = (raw: string | null): string => {
    const s = raw?.trim().toLowerCase() ?? '';
    return /^[a-z0-9-]+$/.test(s) ? s : '';
  };
  const checkIn = date(q.get('check_in'));
  // Flexible dates: a window of move-in dates from checkIn, and a length or a Flex tier in place of a check-out.
  const latestCheckIn = checkIn ? date(q.get('latest_check_in')) : '';
  // A display city alone, or a market; the city when both are named.
  const city = slug(q.get('display_city'));
  const market = city || slug(q.get('market'));
  // A neighborhood or a building is a part of the market: nothing without it, and the building when both are named.
  const building = market && !city ? slug(q.get('building')) : '';
  return {
    view: view && VIEWS.includes(view) ? view : 'search',
    market,
    cityAlone: city !== '',
    neighborhood: market && !city && !building ? slug(q.get('neighborhood')) : '',
    building,
    q: readWords(q.get('q')),
    checkIn,
    checkOut: flex === null && !latestCheckIn ? date(q.get('check_out')) : '',
    flex,
    latestCheckIn,
    length: latestCheckIn && flex === null ? parseLength(q) : null,
    moveIn: latestCheckIn ? date(q.get('move_in')) : '',
    bedrooms: count(q.get('bedrooms'), 20),
    maxPrice: count(q.get('max_price'), 1_000_000),
    filters: FILTER_NAMES.filter((name) => q.get(filterKey(name)) === '1'),
    rating: RATING_NAMES.find((name) => name === q.get('guest_rating')) ?? null,
    area: parseArea(q.get('area')),
    polygon: parseShape(q.get('polygon')),
    page: Math.max(1, count(q.get('page'), 10_000) ?? 1),
    home: slug(q.get('home')),
    cats: count(q.get('cats'), 2) ?? 0,
    dogs: count(q.get('dogs'), 2) ?? 0,
    compare: [...new Set((q.get('compare') ?? '').split(',').map(slug).filter(Boolean))].slice(0, COMPARE_LIMIT),
  };
}

const round = (n: number): string => String(Math.round(n * 1e5) / 1e5);

/** The query string of a state (with its "?"), only what differs from the defaults. */
export function toQuery(state: PageState): string {
  const q = new URLSearchParams();
  if (state.view !== 'search') q.set('view', state.view);
  if (state.market) q.set(state.cityAlone ? 'display_city' : 'market', state.market);
  if (state.neighborhood) q.set('neighborhood', state.neighborhood);
  if (state.building) q.set('building', state.building);
  if (state.q) q.set('q', state.q);
  if (state.checkIn) q.set('check_in', state.checkIn);
  if (state.latestCheckIn) q.set('latest_check_in', state.latestCheckIn);
  if (state.flex !== null) q.set('flex', String(state.flex));
  else if (state.length) q.set(state.length.unit, String(state.length.count));
  else if (state.checkOut) q.set('check_out', state.checkOut);
  if (state.moveIn) q.set('move_in', state.moveIn);
  if (state.bedrooms !== null) q.set('bedrooms', String(state.bedrooms));
  if (state.maxPrice !== null) q.set('max_price', String(state.maxPrice));
  for (const name of FILTER_NAMES) if (state.filters.includes(name)) q.set(filterKey(name), '1');
  if (state.rating) q.set('guest_rating', state.rating);
  if (state.area) {
    const a = state.area;
    q.set('area', [a.swLatitude, a.swLongitude, a.neLatitude, a.neLongitude].map(round).concat(String(a.zoom)).join(','));
  }
  if (state.polygon) q.set('polygon', formatShape(state.polygon));
  if (state.page > 1) q.set('page', String(state.page));
  if (state.home) q.set('home', state.home);
  if (state.cats) q.set('cats', String(state.cats));
  if (state.dogs) q.set('dogs', String(state.dogs));
  if (state.compare.length) q.set('compare', state.compare.join(','));
  const s = q.toString();
  return s ? `?${s}` : '?';
}

/**
 * The one stay a state names: its own dates, or for flexible dates the best stay a result opened the
 * apartment with (its move-in and the search's length or tier), or no dates before one is chosen.
 */
export function exactStay(state: PageState): PageState {
  if (!state.latestCheckIn) return state;
  const fixed: PageState = { ...state, latestCheckIn: '', length: null, moveIn: '', checkOut: '' };
  if (!state.moveIn) return { ...fixed, checkIn: '', flex: null };
  const checkOut = state.flex === null && state.length ? addDays(state.moveIn, lengthNights(state.length)) : '';
  return { ...fixed, checkIn: state.moveIn, checkOut };
}

/** The stay's GET parameters (check_in, check_out or indefinite with its tier) of a read of one apartment or its quote. */
export function stayParams(state: PageState): Record<string, string> {
  const s = exactStay(state);
  if (!s.checkIn) return {};
  if (s.flex !== null) return { check_in: s.checkIn, check_out: 'indefinite', committed_nights: String(s.flex) };
  return s.checkOut ? { check_in: s.checkIn, check_out: s.checkOut } : { check_in: s.checkIn };
}

/**
 * The stay of both searches: flexible dates ask for the window (check_in the earliest move-in,
 * latest_check_in the latest) with nights or a Flex tier, and each home answers with its best stay.
 */
export function searchStayParams(state: PageState): Record<string, string> {
  if (!state.latestCheckIn) return stayParams(state);
  const window = { check_in: state.checkIn, latest_check_in: state.latestCheckIn };
  if (state.flex !== null) return { ...window, check_out: 'indefinite', committed_nights: String(state.flex) };
  return state.length ? { ...window, nights: String(lengthNights(state.length)) } : { check_in: state.checkIn };
}

/** The filters both searches take (the words q among them); max_price is monthly whatever the stay's length. */
export function filterParams(state: PageState): Record<string, string> {
  const p: Record<string, string> = { ...searchStayParams(state) };
  if (state.q) p.q = state.q;
  if (state.bedrooms !== null) p.bedrooms = String(state.bedrooms);
  if (state.maxPrice !== null) {
    p.max_price = String(state.maxPrice);
    p.price_unit = 'per_month';
  }
  for (const name of FILTER_NAMES) if (state.filters.includes(name)) p[name] = 'true';
  if (state.rating) p.guest_rating = state.rating;
  if (state.polygon) p.polygon = formatShape(state.polygon);
  return p;
}

/**
 * `facets=true` asks the search for the form's counts (one request of a state carries it), with the
 * price buckets monthly like the price ceiling. Not with flexible dates: the counts are of one stay's
 * prices, and the search refuses them for a window (each home's price is its own best stay's).
 */
const withFacets = (p: Record<string, string>, facets: boolean): Record<string, string> =>
  facets && !('latest_check_in' in p) ? { ...p, price_unit: 'per_month', facets: 'true' } : p;

/** The place: a display city alone, the market (with its neighborhood or building), or none when the drawn shape alone places the search. */
function place(state: PageState): Record<string, string> {
  if (!state.market) return {};
  if (state.cityAlone) return { display_city: state.market };
  if (state.building) return { market: state.market, building: state.building };
  return state.neighborhood ? { market: state.market, neighborhood: state.neighborhood } : { market: state.market };
}

/** GET /api/public/search: the list page. */
export function searchParams(state: PageState, perPage: number, facets = false): Record<string, string> {
  return withFacets({ ...place(state), ...filterParams(state), page: String(state.page), per_page: String(perPage) }, facets);
}

/** GET /api/public/map-search: the map area once the person moved the map (it stands in for the whole place), else the place (or the drawn shape alone). */
export function mapSearchParams(state: PageState, facets = false): Record<string, string> {
  const p = withFacets(filterParams(state), facets);
  if (!state.area) return { ...place(state), ...p };
  // The area shown, widened to the viewport grid: a small pan asks the question asked before (docs/decisions.md).
  const a = alignViewport(
    { south: state.area.swLatitude, west: state.area.swLongitude, north: state.area.neLatitude, east: state.area.neLongitude },
    state.area.zoom,
  );
  return {
    ...p,
    sw_latitude: String(a.south),
    sw_longitude: String(a.west),
    ne_latitude: String(a.north),
    ne_longitude: String(a.east),
    zoom: String(state.area.zoom),
  };
}
