/**
 * The search form: one box for the place and the words (./place-box.ts), the stay (dates, a Flex
 * tier, or flexible dates: ./stay-fields.ts), bedrooms, guest rating, price ceiling (with the
 * histogram of the answer's prices above it) and the boolean filters. A place picked in the box
 * searches at once; the filters apply as they change (FILTER_PAUSE_MS after the last change); the
 * words and the stay with Search (or Enter in the box). With the answer's facets each filter, bedroom
 * and rating choice shows how many homes it would leave, and a choice that would leave none is disabled.
 */
import type { Market } from './api';
import { field, h } from './dom';
import { bedroomsCount, emptyChoice, filterCount, FILTERS, ratingCount, RATINGS, withCount, type Facets, type Filter, type Rating } from './facets';
import { priceHistogram } from './histogram';
import { placeBox } from './place-box';
import { readWords, type PageState } from './state';
import { stayFields, type StayChoice } from './stay-fields';

export type SearchChoice = StayChoice &
  Pick<PageState, 'market' | 'cityAlone' | 'neighborhood' | 'building' | 'q' | 'bedrooms' | 'maxPrice' | 'filters' | 'rating'>;

/** A changed filter is searched this long after the last change (the map's moves wait as long). */
export const FILTER_PAUSE_MS = 250;

export interface SearchFormView {
  form: HTMLFormElement;
  /** The counts of the last answer; null: none to show. */
  showFacets(facets: Facets | null): void;
  /** True when the form already shows this state (it asked for it itself): it is kept, with what is being typed. */
  holds(state: PageState): boolean;
}

const BEDROOM_CHOICES: Array<[number | null, string]> = [
  [null, 'Any'],
  [0, 'Studio or more'],
  [1, '1+'],
  [2, '2+'],
  [3, '3+'],
];

/** What of a state the form shows. */
const formKey = (s: SearchChoice & { placed: boolean }): string =>
  JSON.stringify([
    s.market,
    s.cityAlone,
    s.neighborhood,
    s.building,
    s.q,
    s.checkIn,
    s.checkOut,
    s.flex,
    s.latestCheckIn,
    s.length,
    s.bedrooms,
    s.maxPrice,
    s.filters,
    s.rating,
    s.placed,
  ]);

/** Whether the map places the search (its area, or a shape drawn on it): then no place is required. */
const mapPlaces = (s: Pick<PageState, 'area' | 'polygon'>): boolean => s.area !== null || s.polygon !== null;

/**
 * `placeLabel` names the state's place (./place-label.ts). A place is required unless the person
 * searches the map area or a shape drawn on it: Search without one takes the best place completing
 * the box's text, or says that none does.
 */
export function searchForm(markets: Market[], state: PageState, placeLabel: string, onSearch: (choice: SearchChoice) => void): SearchFormView {
  const stay = stayFields(state);
  // A place picked or removed searches at once (search() is defined below, before any event can call it).
  const box = placeBox({
    markets,
    place: { market: state.market, cityAlone: state.cityAlone, neighborhood: state.neighborhood, building: state.building },
    label: placeLabel,
    words: state.q,
    onPlace: () => search(),
  });
  const bedroomOptions = BEDROOM_CHOICES.map(([n, label]) => h('option', { value: n ?? '' }, label));
  const bedrooms = h('select', { id: 'f-bedrooms', name: 'bedrooms', 'data-filter': '' }, ...bedroomOptions);
  bedrooms.value = state.bedrooms === null ? '' : String(state.bedrooms);
  const ratingOptions = RATINGS.map(([name, label]) => h('option', { value: name }, label));
  const rating = h('select', { id: 'f-rating', name: 'guest_rating', 'data-filter': '' }, h('option', { value: '' }, 'Any rating'), ...ratingOptions);
  rating.value = state.rating ?? '';
  const maxPrice = h('input', {
    id: 'f-max-price',
    name: 'max_price',
    type: 'number',
    min: 0,
    inputmode: 'numeric',
    value: state.maxPrice ?? '',
    'data-filter': '',
  });
  const histogram = priceHistogram();
  const boxes = FILTERS.map(([name, label]) => {
    const box = h('input', { type: 'checkbox', name, checked: state.filters.includes(name), 'data-filter': '' });
    const text = h('span', {}, label);
    return { name, label, box, text, wrap: h('label', { class: 'choice', 'data-filter-name': name }, box, ' ', text) };
  });

  const form = h(
    'form',
    { class: 'search-form', role: 'search', 'aria-label': 'Search apartments' },
    box.element,
    ...stay.elements,
    field('Bedrooms', 'f-bedrooms', bedrooms),
    field('Guest rating', 'f-rating', rating),
    h('div', { class: 'field price-field' }, h('label', { for: 'f-max-price' }, 'Max price per month (USD)'), histogram.element, maxPrice),
    h('fieldset', { class: 'filters' }, h('legend', {}, 'Filters'), ...boxes.map((b) => b.wrap)),
    h('button', { type: 'submit', class: 'primary' }, 'Search'),
  );

  const n = (s: string): number | null => (s === '' ? null : Number(s));
  const read = (): SearchChoice => ({
    ...box.place(),
    q: readWords(box.words()),
    ...stay.read(),
    bedrooms: n(bedrooms.value),
    maxPrice: maxPrice.validity.valid ? n(maxPrice.value) : null,
    filters: boxes.filter((b) => b.box.checked).map((b) => b.name as Filter),
    rating: rating.value === '' ? null : (rating.value as Rating),
  });
  const held = new Set([formKey({ ...state, placed: mapPlaces(state) })]);
  let timer: number | undefined;
  const search = (): void => {
    window.clearTimeout(timer);
    const choice = read();
    held.add(formKey({ ...choice, placed: mapPlaces(state) }));
    onSearch(choice);
  };
  form.addEventListener('change', (e) => {
    if (!(e.target as HTMLElement).hasAttribute('data-filter')) return;
    window.clearTimeout(timer);
    timer = window.setTimeout(search, FILTER_PAUSE_MS);
  });
  maxPrice.addEventListener('input', () => histogram.setCeiling(n(maxPrice.value)));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (box.place().market || mapPlaces(state)) return search();
    const typed = box.words();
    void box.completeTyped().then((picked) => {
      // Nothing to say once the person has typed on.
      if (picked || box.words() !== typed) return;
      const text = typed.trim();
      box.showError(
        text
          ? `No place matches “${text}”. Pick a place from the list (a city, neighborhood or building), or move the map, to find these words.`
          : 'Type a place (a city, neighborhood or building) and pick it from the list, or move the map.',
      );
    });
  });

  return {
    form,
    showFacets(facets) {
      for (const b of boxes) {
        const count = filterCount(facets, b.name);
        b.text.textContent = withCount(b.label, count);
        b.box.disabled = emptyChoice(count, b.box.checked);
        b.wrap.classList.toggle('empty', b.box.disabled);
      }
      for (const [i, [min, label]] of BEDROOM_CHOICES.entries()) {
        const count = bedroomsCount(facets, min);
        bedroomOptions[i].textContent = withCount(label, count);
        bedroomOptions[i].disabled = emptyChoice(count, bedrooms.value === (min === null ? '' : String(min)));
      }
      for (const [i, [name, label]] of RATINGS.entries()) {
        const count = ratingCount(facets, name);
        ratingOptions[i].textContent = withCount(label, count);
        ratingOptions[i].disabled = emptyChoice(count, rating.value === name);
      }
      histogram.show(facets?.price ?? null, n(maxPrice.value));
    },
    holds: (s) => held.has(formKey({ ...s, placed: mapPlaces(s) })),
  };
}
