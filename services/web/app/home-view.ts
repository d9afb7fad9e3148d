/**
 * The apartment page: photos, facts, bookable windows, a quote for the chosen dates (or Flex tier)
 * and the reservation link, read from GET homes/:slug and homes/:slug/quote.
 */
import type { Apartment, BookableWindow, Quote } from './api';
import { bedroomsLabel, h, money } from './dom';
import { FLEX_TIERS, type PageState } from './state';

export interface QuoteChoice {
  checkIn: string;
  checkOut: string;
  flex: number | null;
  cats: number;
  dogs: number;
}

function windowRow(w: BookableWindow): HTMLElement {
  return h(
    'tr',
    {},
    h('td', {}, w.start_date),
    h('td', {}, w.end_date ?? 'open-ended'),
    h('td', {}, w.nights === null ? '—' : String(w.nights)),
    h('td', {}, `${w.minimum_nightly_stay} nights${w.fits_minimum_stay ? '' : ' (too short)'}`),
  );
}

function quoteForm(state: PageState, onQuote: (choice: QuoteChoice) => void): HTMLFormElement {
  const checkIn = h('input', { id: 'q-check-in', type: 'date', required: true, value: state.checkIn });
  const checkOut = h('input', { id: 'q-check-out', type: 'date', value: state.checkOut });
  const tier = h(
    'select',
    { id: 'q-flex' },
    h('option', { value: '' }, 'No, fixed dates'),
    ...FLEX_TIERS.map((n) => h('option', { value: n }, `Flex, ${n} nights`)),
  );
  tier.value = state.flex === null ? '' : String(state.flex);
  const pets = (id: string, value: number): HTMLSelectElement => {
    const s = h('select', { id }, ...[0, 1, 2].map((n) => h('option', { value: n }, String(n))));
    s.value = String(value);
    return s;
  };
  const cats = pets('q-cats', state.cats);
  const dogs = pets('q-dogs', state.dogs);
  const f = (label: string, id: string, control: HTMLElement): HTMLElement => h('div', { class: 'field' }, h('label', { for: id }, label), control);
  const form = h(
    'form',
    { class: 'quote-form', 'aria-label': 'Get a quote' },
    f('Check-in', 'q-check-in', checkIn),
    f('Check-out', 'q-check-out', checkOut),
    f('Flex stay', 'q-flex', tier),
    f('Cats', 'q-cats', cats),
    f('Dogs', 'q-dogs', dogs),
    h('button', { type: 'submit', class: 'primary' }, 'Get a quote'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const flex = tier.value === '' ? null : Number(tier.value);
    onQuote({ checkIn: checkIn.value, checkOut: flex === null ? checkOut.value : '', flex, cats: Number(cats.value), dogs: Number(dogs.value) });
  });
  return form;
}

function quoteAnswer(quote: Quote | null, error: string | null): HTMLElement {
  const box = h('div', { class: 'quote', id: 'quote', 'aria-live': 'polite' });
  if (error) box.append(h('p', { class: 'error', role: 'alert' }, error));
  else if (!quote) box.append(h('p', {}, 'Choose dates (or a Flex tier from a move-in date) for a quote.'));
  else if (!quote.available) box.append(h('p', { class: 'unavailable' }, `Not available: ${quote.unavailable_reason ?? 'these dates cannot be booked.'}`));
  else {
    const lines = [
      h(
        'p',
        { class: 'price' },
        h('strong', { class: 'amount' }, money(quote.display_price_with_discount ?? 0)),
        ' ',
        h('span', { class: 'label' }, quote.display_price_label ?? ''),
      ),
      quote.term_duration_label ? h('p', {}, `Stay: ${quote.term_duration_label}`) : null,
      quote.charge_schedule ? h('p', { class: 'total' }, `Total: ${money(quote.charge_schedule.total_cost)}`) : null,
      quote.total_discount ? h('p', {}, `Discounts: ${money(quote.total_discount)}`) : null,
      quote.price_note ? h('p', { class: 'note' }, quote.price_note) : null,
    ];
    for (const line of lines) if (line) box.append(line);
  }
  return box;
}

export interface HomeViewProps {
  /** Read without dates: the whole calendar (a read with dates clips it to the stay). */
  home: Apartment;
  /** Read with the stay: its reservation link and whether the stay is bookable. */
  booking: Pick<Apartment, 'reservation_link' | 'requested_stay'>;
  quote: Quote | null;
  quoteError: string | null;
  state: PageState;
  backHref: string;
  onQuote(choice: QuoteChoice): void;
}

export function homeView({ home, booking, quote, quoteError, state, backHref, onQuote }: HomeViewProps): HTMLElement {
  const stayBookable = booking.requested_stay?.available === true;
  const facts = [
    `${home.display_city.name}, ${home.display_city.state}`,
    bedroomsLabel(home.bedrooms),
    `${home.bathrooms} bath`,
    home.sqft ? `${home.sqft} sq ft` : '',
    home.has_parking ? 'Parking' : 'No parking',
    `Cats ${home.pet_policy.cats_allowed ? 'allowed' : 'not allowed'}, dogs ${home.pet_policy.dogs_allowed ? 'allowed' : 'not allowed'}`,
  ].filter(Boolean);
  return h(
    'article',
    { class: 'home', 'data-slug': home.slug },
    h('p', {}, h('a', { href: backHref }, '← Back to results')),
    h('h2', { id: 'home-heading' }, home.name),
    h('p', { class: 'facts' }, facts.join(' · ')),
    h(
      'p',
      { class: 'price' },
      h('strong', { class: 'amount' }, money(home.display_price_with_discount)),
      ' ',
      h('span', { class: 'label' }, home.display_price_label),
    ),
    // A strip that scrolls sideways: focusable, so the arrow keys scroll it too.
    h(
      'div',
      { class: 'photos', role: 'region', 'aria-label': `Photos (${home.photos.length})`, tabindex: 0 },
      h(
        'ul',
        {},
        ...home.photos.map((p, i) =>
          h('li', {}, h('img', { src: p.widget_url ?? p.url, alt: p.caption ?? `Photo ${i + 1}`, loading: i < 2 ? 'eager' : 'lazy', width: 320, height: 220 })),
        ),
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'quote-heading', class: 'panel' },
      h('h3', { id: 'quote-heading' }, 'Quote'),
      quoteForm(state, onQuote),
      quoteAnswer(quote, quoteError),
      h(
        'p',
        {},
        h('a', { class: 'button reserve', href: booking.reservation_link, rel: 'noopener' }, stayBookable ? 'Reserve these dates' : 'Reserve'),
        booking.requested_stay && !stayBookable ? ` ${booking.requested_stay.unavailable_reason ?? ''}` : null,
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'windows-heading', class: 'panel' },
      h('h3', { id: 'windows-heading' }, 'Bookable windows'),
      h(
        'table',
        { class: 'windows' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'From'),
            h('th', { scope: 'col' }, 'Until'),
            h('th', { scope: 'col' }, 'Nights'),
            h('th', { scope: 'col' }, 'Minimum stay'),
          ),
        ),
        h('tbody', {}, ...home.availability.bookable_windows.map(windowRow)),
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'about-heading', class: 'panel' },
      h('h3', { id: 'about-heading' }, home.property.name),
      home.property.description ? h('p', {}, home.property.description) : null,
      h('ul', { class: 'amenities' }, ...home.amenities.map((a) => h('li', {}, a))),
    ),
  );
}
