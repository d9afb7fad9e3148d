/** The page's only I/O: the public GET API, like any other client. The answer shapes it reads are below. */
import type { ChosenStay } from '../../kernel/engine/stay-label';
import type { Facets } from './facets';

export interface Market {
  slug: string;
  name: string;
  state: string;
  cities: Array<{ slug: string; name: string; state: string }>;
}

export interface SearchHome {
  slug: string;
  name: string;
  bedrooms: number;
  bathrooms: number;
  sqft?: number;
  city: string;
  latitude: number;
  longitude: number;
  display_price_with_discount: number;
  display_price_without_discount?: number;
  display_price_label: string;
  price_note?: string;
  widget_hero_image_url?: string;
  earliest_available_date?: string | null;
  /** With flexible dates: the home's best stay in the window (for Flex, end_date null); its price is this stay's. */
  stay?: ChosenStay;
  /** With q: the fields that matched, each a fragment escaped for HTML with the words in <mark></mark>. */
  matched?: Array<{ field: string; text: string }>;
}

/** A place of GET /suggest: its `search` is the place's search arguments (market, with a neighborhood or building; a display city alone as scope.display_city). */
export interface Suggestion {
  type: 'market' | 'city' | 'neighborhood' | 'building';
  slug: string;
  label: string;
  market: string;
  search: { market: string; neighborhood?: string; building?: string } | { scope: { display_city: string } };
}

export interface SearchAnswer {
  total_count: number;
  total_pages?: number;
  homes: SearchHome[];
  /** With facets=true: the form's counts. */
  facets?: Facets;
}

export interface Cluster {
  tile: string;
  count: number;
  latitude: number;
  longitude: number;
  bounds: { south: number; west: number; north: number; east: number };
  cheapest_display_price?: number;
  cheapest_display_price_at_least?: number;
}

export interface MapAnswer extends SearchAnswer {
  clusters?: Cluster[];
  map_view: { enabled: boolean; reason?: string };
}

export interface BookableWindow {
  start_date: string;
  end_date: string | null;
  nights: number | null;
  minimum_nightly_stay: number;
  fits_minimum_stay: boolean;
}

export interface Apartment {
  slug: string;
  name: string;
  bedrooms: number;
  bathrooms: number;
  sqft?: number;
  floor?: number;
  market: { slug: string; name: string };
  display_city: { slug: string; name: string; state: string };
  display_price_with_discount: number;
  display_price_label: string;
  price_note?: string;
  eligible_for_flex: boolean;
  amenities: string[];
  has_parking: boolean;
  pet_policy: { cats_allowed: boolean; dogs_allowed: boolean };
  laundry_type?: string;
  property: { slug: string; name: string; address?: string; description?: string; walk_score?: number; transit_score?: number };
  photos: Array<{ url: string; widget_url?: string; caption?: string }>;
  reservation_link: string;
  requested_stay?: { available: boolean; unavailable_reason?: string };
  availability: { bookable_windows: BookableWindow[]; earliest_available_date?: string | null };
}

export interface Quote {
  available: boolean;
  unavailable_reason?: string;
  display_price_with_discount?: number;
  display_price_label?: string;
  price_note?: string;
  term_duration_label?: string;
  total_discount?: number;
  charge_schedule?: { total_cost: number };
}

export interface PolicyEntry {
  topic: string;
  answer: string;
}

/** A refusal of the API, with the message of its error object (docs/contract.md, "Errors"). */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function getJson<T>(path: string, params: Record<string, string> = {}, signal?: AbortSignal): Promise<T> {
  const query = new URLSearchParams(params).toString();
  const res = await fetch(`/api/public${path}${query ? `?${query}` : ''}`, { signal, headers: { Accept: 'application/json' } });
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  if (!res.ok) throw new ApiRefusal(res.status, body?.error?.message ?? `The service answered ${res.status}.`);
  return body as T;
}
