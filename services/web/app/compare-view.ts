/** Up to four homes side by side, each read with GET homes/:slug (there is no GET route for compare). */
import type { Apartment } from './api';
import { bedroomsLabel, h, money } from './dom';

const ROWS: Array<[string, (a: Apartment) => string]> = [
  ['Price', (a) => `${money(a.display_price_with_discount)} ${a.display_price_label}`],
  [
    'Requested stay',
    (a) =>
      a.requested_stay
        ? a.requested_stay.available
          ? 'Bookable'
          : `Not bookable${a.requested_stay.unavailable_reason ? `: ${a.requested_stay.unavailable_reason}` : ''}`
        : 'No dates chosen',
  ],
  ['Place', (a) => `${a.display_city.name}, ${a.display_city.state}`],
  ['Bedrooms', (a) => bedroomsLabel(a.bedrooms)],
  ['Bathrooms', (a) => String(a.bathrooms)],
  ['Size', (a) => (a.sqft ? `${a.sqft} sq ft` : '—')],
  ['Parking', (a) => (a.has_parking ? 'Yes' : 'No')],
  ['Pets', (a) => [a.pet_policy.cats_allowed ? 'cats' : '', a.pet_policy.dogs_allowed ? 'dogs' : ''].filter(Boolean).join(' and ') || 'none'],
  ['Laundry', (a) => a.laundry_type ?? '—'],
  ['Flex', (a) => (a.eligible_for_flex ? 'Open to Flex stays' : 'No')],
  ['Earliest move-in', (a) => a.availability.earliest_available_date ?? '—'],
  ['Walk score', (a) => (a.property.walk_score === undefined ? '—' : String(a.property.walk_score))],
];

export interface CompareProps {
  homes: Apartment[];
  missing: string[];
  backHref: string;
  homeHref(slug: string): string;
  onRemove(slug: string): void;
}

export function compareView({ homes, missing, backHref, homeHref, onRemove }: CompareProps): HTMLElement {
  const head = h('tr', {}, h('td', {}), ...homes.map((a) => h('th', { scope: 'col' }, h('a', { href: homeHref(a.slug) }, a.name))));
  const photos = h(
    'tr',
    {},
    h('th', { scope: 'row' }, 'Photo'),
    ...homes.map((a) => h('td', {}, a.photos[0] ? h('img', { src: a.photos[0].widget_url ?? a.photos[0].url, alt: '', width: 200, height: 130 }) : '—')),
  );
  const remove = h(
    'tr',
    {},
    h('td', {}),
    ...homes.map((a) =>
      h(
        'td',
        {},
        h('button', { type: 'button', class: 'link', 'aria-label': `Remove ${a.name} from the comparison`, onclick: () => onRemove(a.slug) }, 'Remove'),
      ),
    ),
  );
  return h(
    'section',
    { class: 'compare', 'aria-labelledby': 'compare-heading' },
    h('p', {}, h('a', { href: backHref }, '← Back to results')),
    h('h2', { id: 'compare-heading' }, homes.length ? `Comparing ${homes.length} homes` : 'Compare homes'),
    homes.length === 0 ? h('p', {}, 'Tick "Compare" on up to four results to see them side by side.') : null,
    missing.length ? h('p', { role: 'alert' }, `No longer listed: ${missing.join(', ')}`) : null,
    homes.length
      ? h(
          'div',
          { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Comparison table' },
          h(
            'table',
            { class: 'compare-table' },
            h('thead', {}, head),
            h(
              'tbody',
              {},
              photos,
              ...ROWS.map(([label, value]) => h('tr', {}, h('th', { scope: 'row' }, label), ...homes.map((a) => h('td', {}, value(a))))),
              remove,
            ),
          ),
        )
      : null,
  );
}
