/** The search form: a place from the markets list, dates or a Flex tier, bedrooms, price, pets, parking. */
import type { Market } from './api';
import { h } from './dom';
import { FLEX_TIERS, type PageState } from './state';

export type SearchChoice = Pick<PageState, 'market' | 'checkIn' | 'checkOut' | 'flex' | 'bedrooms' | 'maxPrice' | 'pets' | 'parking'>;

/** A place is required unless the person searches the map area. */
function placeOptions(markets: Market[], chosen: string, inArea: boolean): HTMLSelectElement {
  const select = h('select', { id: 'f-market', name: 'market', required: !inArea }, h('option', { value: '' }, 'Choose a place'));
  for (const m of markets) {
    const group = h('optgroup', { label: `${m.name}, ${m.state}` }, h('option', { value: m.slug }, `All of ${m.name}`));
    for (const c of m.cities) if (c.slug !== m.slug) group.append(h('option', { value: c.slug }, `${c.name}, ${c.state}`));
    select.append(group);
  }
  select.value = chosen;
  return select;
}

const field = (label: string, id: string, control: HTMLElement): HTMLElement => h('div', { class: 'field' }, h('label', { for: id }, label), control);

export function searchForm(markets: Market[], state: PageState, onSearch: (choice: SearchChoice) => void): HTMLFormElement {
  const isFlex = state.flex !== null;
  const checkIn = h('input', { id: 'f-check-in', name: 'check_in', type: 'date', value: state.checkIn });
  const checkOut = h('input', { id: 'f-check-out', name: 'check_out', type: 'date', value: state.checkOut });
  const tier = h('select', { id: 'f-flex', name: 'flex' }, ...FLEX_TIERS.map((n) => h('option', { value: n }, `${Math.round(n / 30)} months (${n} nights)`)));
  tier.value = String(state.flex ?? FLEX_TIERS[0]);
  const checkOutField = field('Check-out', 'f-check-out', checkOut);
  const tierField = field('Flex commitment', 'f-flex', tier);
  const kind = (value: 'dates' | 'flex', label: string): HTMLElement =>
    h('label', { class: 'choice' }, h('input', { type: 'radio', name: 'stay', value, checked: (value === 'flex') === isFlex }), ` ${label}`);
  const stay = h('fieldset', { class: 'stay' }, h('legend', {}, 'Stay'), kind('dates', 'Dates'), kind('flex', 'Flex (open-ended)'));
  const showKind = (flex: boolean): void => {
    checkOutField.hidden = flex;
    tierField.hidden = !flex;
  };
  showKind(isFlex);
  stay.addEventListener('change', () => showKind(form.stay.value === 'flex'));

  const bedrooms = h(
    'select',
    { id: 'f-bedrooms', name: 'bedrooms' },
    h('option', { value: '' }, 'Any'),
    h('option', { value: 0 }, 'Studio or more'),
    ...[1, 2, 3].map((n) => h('option', { value: n }, `${n}+`)),
  );
  bedrooms.value = state.bedrooms === null ? '' : String(state.bedrooms);
  const maxPrice = h('input', { id: 'f-max-price', name: 'max_price', type: 'number', min: 0, inputmode: 'numeric', value: state.maxPrice ?? '' });
  const check = (name: string, label: string, on: boolean): HTMLElement =>
    h('label', { class: 'choice' }, h('input', { type: 'checkbox', name, checked: on }), ` ${label}`);

  const form = h(
    'form',
    { class: 'search-form', role: 'search', 'aria-label': 'Search apartments' },
    field('Place', 'f-market', placeOptions(markets, state.market, state.area !== null)),
    stay,
    field('Check-in', 'f-check-in', checkIn),
    checkOutField,
    tierField,
    field('Bedrooms', 'f-bedrooms', bedrooms),
    field('Max price per month (USD)', 'f-max-price', maxPrice),
    h('div', { class: 'checks' }, check('pets', 'Pets allowed', state.pets), check('parking', 'Parking', state.parking)),
    h('button', { type: 'submit', class: 'primary' }, 'Search'),
  ) as HTMLFormElement & { stay: RadioNodeList };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const flex = form.stay.value === 'flex';
    const n = (s: string): number | null => (s === '' ? null : Number(s));
    onSearch({
      market: (form.querySelector('#f-market') as HTMLSelectElement).value,
      checkIn: checkIn.value,
      checkOut: flex || !checkIn.value ? '' : checkOut.value,
      flex: flex && checkIn.value ? Number(tier.value) : null,
      bedrooms: n(bedrooms.value),
      maxPrice: n(maxPrice.value),
      pets: (form.querySelector('[name=pets]') as HTMLInputElement).checked,
      parking: (form.querySelector('[name=parking]') as HTMLInputElement).checked,
    });
  });
  return form;
}
