/**
 * The card-grid widget of search_apartments_tool: one card per home of the result page, with its best
 * stay's dates when the search named a window of move-in dates (the answer's `stay`), and the fields
 * its words matched, the words marked, when the search had q (the answer's `matched`).
 */
import { stayLabel } from '../../kernel/engine/stay-label';
import { connectHost, type ToolResultPayload } from './host';
import { el, mount, onActivate } from './dom';
import { matchedLines } from './marked-text';
import { reserveLink } from './reserve-link';
import { askAbout, embeddedHeroes, formatPrice, homeFacts, placeName, readHomes, type SearchHome, type SearchPage } from './results';

// Shown until the host delivers the result.
mount(el('p', { class: 'notice' }, 'Waiting for the search result…'));
const host = connectHost('furnished-catalog-cards', { onResult: render });

const noPhoto = (): HTMLElement => el('div', { class: 'photo placeholder' }, 'No photo');

/** The hero photo; a host whose policy blocks it gets the placeholder instead of a broken image. */
function photoOf(src: string | undefined): HTMLElement {
  if (!src) return noPhoto();
  const img = el('img', { class: 'photo', src, alt: '', loading: 'lazy' });
  img.addEventListener('error', () => img.replaceWith(noPhoto()));
  return img;
}

function card(home: SearchHome, photo: string | undefined, select: (home: SearchHome, node: HTMLElement) => void): HTMLElement {
  const rating = home.property?.member_rating;
  // The card is one button named by its content (name, facts, matches, price, stay, badges): the name a screen reader says is the text shown.
  const node = el(
    'article',
    { class: 'card', role: 'button', tabindex: '0', 'data-slug': home.slug },
    photoOf(photo),
    el(
      'div',
      { class: 'body' },
      el('h3', { class: 'name' }, home.name),
      el('p', { class: 'facts' }, homeFacts(home)),
      matchedLines(home.matched),
      el('p', { class: 'price' }, el('strong', {}, formatPrice(home)), ' ', el('span', { class: 'label' }, home.display_price_label)),
      home.stay && el('p', { class: 'stay-dates' }, stayLabel(home.stay)),
      el(
        'p',
        { class: 'badges' },
        home.eligible_for_flex && el('span', { class: 'badge' }, 'Flex'),
        rating && el('span', { class: 'badge' }, `★ ${rating.average.toFixed(1)} (${rating.count})`),
      ),
    ),
  );
  onActivate(node, () => select(home, node));
  // The link beside the card, not inside it: the card is a button, and a link in a button is not reachable.
  return el('div', { class: 'tile' }, node, reserveLink(home, host));
}

function render(result: ToolResultPayload): void {
  const page = readHomes<SearchPage>(result);
  if (!page) {
    mount(el('p', { class: 'notice error' }, 'This result has no apartments to show.'));
    return;
  }
  const status = el('p', { class: 'status', role: 'status', 'data-testid': 'selection' }, 'Click an apartment to ask about it.');
  const select = (home: SearchHome, node: HTMLElement): void => {
    for (const other of document.querySelectorAll('.card.selected')) other.classList.remove('selected');
    node.classList.add('selected');
    status.replaceChildren('Selected: ', el('strong', {}, home.name), ` · ${home.slug}`);
    host.sendMessage(askAbout(home));
  };
  const photos = embeddedHeroes(result);
  const heading = el(
    'header',
    {},
    el('h2', {}, `Apartments in ${placeName(page)}`),
    el('p', { class: 'summary' }, `${page.count} shown of ${page.total_count} · page ${page.page} of ${Math.max(page.total_pages, 1)}`),
  );
  const grid = page.homes.length
    ? el('section', { class: 'grid' }, ...page.homes.map((h) => card(h, photos.get(h.slug) ?? h.widget_hero_image_url, select)))
    : el('p', { class: 'notice' }, 'No apartment matches this search.');
  mount(heading, grid, status);
}
