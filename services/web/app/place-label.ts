/**
 * The name of the place a search keeps to, for the place box and the results heading. The URL holds
 * slugs only: a place picked in the box brings its label (remembered here); one opened from a link is
 * named from the public GET API: a market or city from the markets list, a neighborhood from the
 * market's filters, a building from an apartment of it. A place nothing names (an empty building, a
 * failed read) is spelled from its slug.
 */
import { getJson, type Apartment, type Market, type SearchAnswer } from './api';

/**
 * A place as the state holds it: a market or city slug, with at most one of a neighborhood or a building
 * of it; with `cityAlone`, the slug is a display city's, searched alone (the API's display_city).
 */
export interface Place {
  market: string;
  cityAlone: boolean;
  neighborhood: string;
  building: string;
}

export const NO_PLACE: Place = { market: '', cityAlone: false, neighborhood: '', building: '' };

const keyOf = (p: Place): string => `${p.market}|${p.cityAlone ? 'city' : ''}|${p.neighborhood}|${p.building}`;
export const samePlace = (a: Place, b: Place): boolean => keyOf(a) === keyOf(b);

const labels = new Map<string, string>();

/** Remembers the label a place was picked with, so that naming it again asks nothing. */
export function rememberPlace(place: Place, label: string): void {
  labels.set(keyOf(place), label);
}

/** "back-bay" -> "Back bay": a last resort when no answer names the place. */
const spelled = (slug: string): string => slug.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** A market's or a display city's name; a market's slug names the whole market even when a city shares it. */
export function marketName(slug: string, markets: Market[]): string | undefined {
  return markets.find((m) => m.slug === slug)?.name ?? cityName(slug, markets);
}

/** A display city's name. */
const cityName = (slug: string, markets: Market[]): string | undefined => markets.flatMap((m) => m.cities).find((c) => c.slug === slug)?.name;

async function neighborhoodName(place: Place): Promise<string | undefined> {
  const filters = await getJson<{ neighborhoods: Array<{ slug: string; name: string }> }>('/market-filters', { market: place.market });
  return filters.neighborhoods.find((n) => n.slug === place.neighborhood)?.name;
}

async function buildingName(place: Place): Promise<string | undefined> {
  const answer = await getJson<SearchAnswer>('/search', { market: place.market, building: place.building, per_page: '1' });
  const first = answer.homes[0];
  if (!first) return undefined;
  const home = await getJson<Apartment>(`/homes/${encodeURIComponent(first.slug)}`);
  return home.property.slug === place.building ? home.property.name : undefined;
}

/** The place's name (cached); '' for no place. */
export async function placeLabel(place: Place, markets: Market[]): Promise<string> {
  if (!place.market) return '';
  const known = labels.get(keyOf(place));
  if (known !== undefined) return known;
  let label: string | undefined;
  if (place.building) label = await buildingName(place).catch(() => undefined);
  else if (place.neighborhood) label = await neighborhoodName(place).catch(() => undefined);
  else label = place.cityAlone ? cityName(place.market, markets) : marketName(place.market, markets);
  // Only a name read is kept: a failed read is asked again the next time.
  if (label === undefined) return spelled(place.building || place.neighborhood || place.market);
  labels.set(keyOf(place), label);
  return label;
}
