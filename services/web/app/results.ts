/**
 * The results list: a card per home with its all-in price and label (with flexible dates its best
 * stay, which its link opens; with words, the fields they matched), pages, and the compare choice.
 */
import { stayLabel } from '../../kernel/engine/stay-label';
import type { SearchHome } from './api';
import { bedroomsLabel, h, money } from './dom';
import { matchedList } from './marked-text';
import { COMPARE_LIMIT } from './state';

export interface ResultsProps {
  homes: SearchHome[];
  heading: string;
  page: number;
  totalPages: number;
  compare: string[];
  homeHref(slug: string, moveIn?: string): string;
  pageHref(page: number): string;
  compareHref: string;
  onCompare(slug: string, on: boolean): void;
}

function card(home: SearchHome, props: ResultsProps): HTMLElement {
  const chosen = props.compare.includes(home.slug);
  const full = !chosen && props.compare.length >= COMPARE_LIMIT;
  const box = h('input', {
    type: 'checkbox',
    class: 'compare-box',
    'aria-label': `Compare ${home.name}`,
    checked: chosen,
    disabled: full,
    'aria-describedby': full ? 'compare-full' : null,
  });
  box.addEventListener('change', () => props.onCompare(home.slug, box.checked));
  return h(
    'li',
    { class: 'result', 'data-slug': home.slug, id: `result-${home.slug}` },
    home.widget_hero_image_url ? h('img', { src: home.widget_hero_image_url, alt: '', loading: 'lazy', width: 160, height: 110 }) : null,
    h(
      'div',
      { class: 'result-body' },
      h('h3', {}, h('a', { href: props.homeHref(home.slug, home.stay?.start_date) }, home.name)),
      h('p', { class: 'facts' }, `${home.city} · ${bedroomsLabel(home.bedrooms)} · ${home.bathrooms} bath${home.sqft ? ` · ${home.sqft} sq ft` : ''}`),
      matchedList(home.matched),
      h(
        'p',
        { class: 'price' },
        h('strong', { class: 'amount' }, money(home.display_price_with_discount)),
        ' ',
        h('span', { class: 'label' }, home.display_price_label),
      ),
      home.stay ? h('p', { class: 'stay-dates' }, 'Best stay: ', h('strong', {}, stayLabel(home.stay))) : null,
      home.price_note ? h('p', { class: 'note' }, home.price_note) : null,
      h('label', { class: 'choice' }, box, ' Compare'),
    ),
  );
}

export function resultsList(props: ResultsProps): HTMLElement {
  const pager = h('nav', { class: 'pager', 'aria-label': 'Result pages' });
  if (props.page > 1) pager.append(h('a', { href: props.pageHref(props.page - 1), rel: 'prev' }, 'Previous page'));
  if (props.totalPages > 1) pager.append(h('span', {}, ` Page ${props.page} of ${props.totalPages} `));
  if (props.page < props.totalPages) pager.append(h('a', { href: props.pageHref(props.page + 1), rel: 'next' }, 'Next page'));
  const compareBar =
    props.compare.length > 0
      ? h(
          'p',
          { class: 'compare-bar' },
          h('a', { href: props.compareHref, class: 'button' }, `Compare ${props.compare.length} home${props.compare.length > 1 ? 's' : ''}`),
          props.compare.length >= COMPARE_LIMIT ? h('span', { id: 'compare-full' }, ` Up to ${COMPARE_LIMIT} homes.`) : null,
        )
      : null;
  return h(
    'section',
    { class: 'results', 'aria-labelledby': 'results-heading' },
    h('h2', { id: 'results-heading' }, props.heading),
    compareBar,
    props.homes.length
      ? h('ul', { class: 'result-list' }, ...props.homes.map((home) => card(home, props)))
      : h('p', {}, 'No apartment matches. Try fewer filters or another area.'),
    pager,
  );
}
