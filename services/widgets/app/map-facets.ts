/**
 * The counts a map result carries when it was searched with `facets: true`: how many of its matches
 * each filter, bedroom count and rating would leave, and how its prices fall. Shown under the map as
 * a short list; a result without them shows nothing.
 */
import { el } from './dom';
import { FLAG_LABELS } from '../../kernel/store/flag-fields';

export interface MapFacets {
  filters: Array<{ filter: string; count: number }>;
  bedrooms: Array<{ bedrooms: number; count: number }>;
  guest_rating: Array<{ guest_rating: string; count: number }>;
  price: { unit: 'per_night' | 'per_month'; buckets: Array<{ min: number; max: number; count: number }> };
}

const RATING_LABELS: Record<string, string> = { EXCELLENT: 'Excellent', VERY_GOOD: 'Very good', GOOD: 'Good' };

const num = (n: number): string => n.toLocaleString('en-US');

/** The result's facets when it has them (read defensively: a host may hand over any structured content). */
export function readFacets(result: unknown): MapFacets | null {
  const f = (result as { facets?: Partial<MapFacets> } | null)?.facets;
  if (!f || !Array.isArray(f.filters) || !Array.isArray(f.bedrooms) || !Array.isArray(f.guest_rating) || !Array.isArray(f.price?.buckets)) return null;
  return f as MapFacets;
}

/** "Parking 42" for each count above zero, in the result's order. */
function counts<T>(items: T[], label: (item: T) => string, count: (item: T) => number): HTMLElement {
  const shown = items.filter((i) => count(i) > 0);
  if (!shown.length) return el('dd', {}, 'none');
  return el('dd', {}, ...shown.map((i) => el('span', { class: 'facet' }, `${label(i)} `, el('strong', {}, num(count(i))))));
}

export function facetList(facets: MapFacets): HTMLElement {
  const unit = facets.price.unit === 'per_night' ? '/night' : '/month';
  return el(
    'section',
    { class: 'facets', 'data-testid': 'facets', 'aria-label': 'Matches by filter' },
    el(
      'dl',
      {},
      el('dt', {}, 'With'),
      counts(
        facets.filters,
        (f) => (FLAG_LABELS as Record<string, string>)[f.filter] ?? f.filter.replace(/_/g, ' '),
        (f) => f.count,
      ),
      el('dt', {}, 'Bedrooms'),
      counts(
        facets.bedrooms,
        (b) => (b.bedrooms === 0 ? 'Studio' : `${b.bedrooms} bd`),
        (b) => b.count,
      ),
      el('dt', {}, 'Rating'),
      counts(
        facets.guest_rating,
        (r) => RATING_LABELS[r.guest_rating] ?? r.guest_rating,
        (r) => r.count,
      ),
      el('dt', {}, 'Price'),
      counts(
        facets.price.buckets,
        (b) => `$${num(b.min)}–$${num(b.max)}${unit}`,
        (b) => b.count,
      ),
    ),
  );
}
