/**
 * The search page: reads the state from the URL, renders the view it names, and
 * writes every change back to the URL (history.pushState), so the back button and a shared link
 * both restore it. All data comes from the public GET API.
 */
import { ApiRefusal, getJson, type Apartment, type MapAnswer, type Market, type PolicyEntry, type Quote, type SearchAnswer } from './api';
import { compareView } from './compare-view';
import { h } from './dom';
import { homeView } from './home-view';
import { createMapView, mapElement, type MapView } from './map-view';
import { placeLabel, samePlace } from './place-label';
import { policiesView } from './policies-view';
import { resultsList } from './results';
import { searchForm, type SearchFormView } from './search-form';
import { watchForm } from './watch-form';
import { COMPARE_LIMIT, exactStay, mapSearchParams, parseState, searchParams, stayParams, toQuery, type PageState } from './state';

const PER_PAGE = 12;
const main = document.getElementById('content') as HTMLElement;
let markets: Promise<Market[]> | undefined;
const loadMarkets = (): Promise<Market[]> => (markets ??= getJson<{ markets: Market[] }>('/markets').then((a) => a.markets));

const current = (): PageState => parseState(location.search);
const href = (patch: Partial<PageState>): string => toQuery({ ...current(), ...patch });
/** With flexible dates a result opens its best stay (its move-in); the way back searches the window again. */
const homeHref = (slug: string, moveIn = ''): string => href({ view: 'home', home: slug, moveIn });
const searchHref = (): string => href({ view: 'search', home: '', moveIn: '' });

function navigate(state: PageState): void {
  // The same state again (Search after the filters already applied it) adds no history entry.
  if (toQuery(state) === location.search) history.replaceState(null, '', toQuery(state));
  else history.pushState(null, '', toQuery(state));
  void render();
}

const message = (err: unknown): string => (err instanceof ApiRefusal ? err.message : 'The service could not be reached. Try again.');

// ---- the search view: form, results and map; the map is kept while the view stays -------------

interface SearchShell {
  formSlot: HTMLElement;
  form: SearchFormView | null;
  status: HTMLElement;
  results: HTMLElement;
  map: MapView;
}
let shell: SearchShell | null = null;
let inFlight: AbortController | null = null;
/** The market last framed on the map: a new market (or new filters) frames its pins again. */
let framedFor = '';

function openSearchShell(): SearchShell {
  if (shell) return shell;
  main.replaceChildren();
  const formSlot = h('div', { class: 'form-slot' });
  // Announces each answer to screen readers; the results heading says the same on screen.
  const status = h('p', { class: 'visually-hidden', role: 'status', id: 'status' });
  const results = h('div', { class: 'results-slot' });
  const mapBox = mapElement();
  main.append(
    h('h1', { class: 'visually-hidden' }, 'Search furnished apartments'),
    formSlot,
    status,
    h('div', { class: 'layout' }, results, h('div', { class: 'map-slot' }, mapBox)),
  );
  const map = createMapView(mapBox, {
    onArea: (area) => navigate({ ...current(), area, page: 1 }),
    onPin: (slug) => {
      const card = document.getElementById(`result-${slug}`);
      document.querySelectorAll('.result.selected').forEach((el) => el.classList.remove('selected'));
      card?.classList.add('selected');
      card?.scrollIntoView({ block: 'nearest' });
    },
    // A shape needs no place: drawn before one was chosen, it places the search alone.
    onShape: (polygon) => navigate({ ...current(), polygon, page: 1 }),
    homeHref,
  });
  mapBox.before(map.controls);
  shell = { formSlot, form: null, status, results, map };
  return shell;
}

function closeSearchShell(): void {
  shell?.map.destroy();
  shell = null;
  framedFor = '';
}

async function renderSearch(state: PageState): Promise<void> {
  const s = openSearchShell();
  inFlight?.abort();
  const controller = new AbortController();
  inFlight = controller;
  const all = await loadMarkets().catch(() => [] as Market[]);
  const place = await placeLabel(state, all);
  if (controller.signal.aborted) return; // a newer state is being drawn
  // The form stays while it shows the state (its own filter changes), so what is being typed is kept.
  if (!s.form?.holds(state)) {
    s.form = searchForm(all, state, place, (choice) => {
      const now = current();
      // The same place keeps the map area and the shape the person chose; another place is searched whole.
      const same = samePlace(choice, now);
      navigate({ ...now, ...choice, view: 'search', area: same ? now.area : null, polygon: same ? now.polygon : null, page: 1, home: '', moveIn: '' });
    });
    s.formSlot.replaceChildren(s.form.form);
  }
  const form = s.form;
  if (!state.market && !state.area && !state.polygon) {
    form.showFacets(null);
    s.map.showShape(state.polygon, false);
    s.status.textContent = '';
    const hint = state.q
      ? `Choose a place to find “${state.q}” in: type it in the box and pick it from the list. Or move the map to search the area it shows.`
      : 'Type a place in the box and pick it from the list, choose dates, then search. Or move the map to search the area it shows.';
    s.results.replaceChildren(h('p', { class: 'hint' }, hint));
    return;
  }
  s.status.textContent = 'Searching…';
  const words = state.q ? ` matching “${state.q}”` : '';
  try {
    let homes: SearchAnswer['homes'];
    let total: number;
    let pages: number;
    let heading: string;
    let facets: SearchAnswer['facets'];
    const drawnArea = state.polygon ? 'the area drawn on the map' : null;
    // One request of each state asks for the form's counts (facets=true): the one that answers the list.
    if (state.area) {
      // The person moved the map: the viewport search answers both the map and the list.
      const answer = await getJson<MapAnswer>('/map-search', mapSearchParams(state, true), controller.signal);
      s.map.showArea(state.area);
      s.map.showShape(state.polygon, false);
      s.map.show(answer, false);
      total = answer.total_count;
      pages = Math.max(1, Math.ceil(answer.homes.length / PER_PAGE));
      homes = answer.homes.slice((state.page - 1) * PER_PAGE, state.page * PER_PAGE);
      heading = `${total} home${total === 1 ? '' : 's'} in ${drawnArea ?? 'the map area'}${words}`;
      facets = answer.facets;
    } else {
      const [list, pins] = await Promise.all([
        getJson<SearchAnswer>('/search', searchParams(state, PER_PAGE, true), controller.signal),
        getJson<MapAnswer>('/map-search', mapSearchParams(state), controller.signal),
      ]);
      const key = toQuery({ ...state, page: 1 });
      // A new search frames its pins, or the shape drawn when there is one (it is what the person chose).
      s.map.showShape(state.polygon, framedFor !== key);
      s.map.show(pins, framedFor !== key && !state.polygon);
      framedFor = key;
      total = list.total_count;
      pages = list.total_pages ?? 1;
      homes = list.homes;
      heading = `${total} home${total === 1 ? '' : 's'} in ${drawnArea ?? place}${words}`;
      facets = list.facets;
    }
    if (controller.signal.aborted) return;
    form.showFacets(facets ?? null);
    s.status.textContent = `${heading}.`;
    // Kept across the redraws of this answer (a compare box ticked), so a typed email stays.
    const watch = watchForm(state);
    const draw = (compare: string[]): HTMLElement => {
      const list = resultsList({
        homes,
        heading,
        page: state.page,
        totalPages: pages,
        compare,
        homeHref,
        pageHref: (page) => href({ page }),
        compareHref: href({ view: 'compare' }),
        onCompare: (slug, on) => {
          const now = current();
          const chosen = on ? [...now.compare, slug].slice(0, COMPARE_LIMIT) : now.compare.filter((c) => c !== slug);
          history.replaceState(null, '', toQuery({ ...now, compare: chosen }));
          // Redrawn from the same answer (no new search), with the focus kept on the box just ticked.
          draw(chosen);
          document.querySelector<HTMLInputElement>(`#result-${slug} .compare-box`)?.focus();
        },
      });
      if (state.area && state.market) {
        list.insertBefore(h('p', {}, h('a', { href: href({ area: null, page: 1 }) }, `Search all of ${place} again`)), list.children[1]);
      }
      s.results.replaceChildren(list, watch);
      return list;
    };
    draw(state.compare);
  } catch (err) {
    if (controller.signal.aborted) return;
    form.showFacets(null);
    s.status.textContent = '';
    s.results.replaceChildren(h('p', { class: 'error', role: 'alert' }, message(err)));
  }
}

// ---- the other views ---------------------------------------------------------------------------

function show(view: HTMLElement): void {
  main.replaceChildren(view);
  main.querySelector<HTMLElement>('h2')?.setAttribute('tabindex', '-1');
  main.querySelector<HTMLElement>('h2')?.focus();
}

async function renderHome(state: PageState): Promise<void> {
  const stay = stayParams(state);
  const quoting = 'check_out' in stay;
  const pets: Record<string, string> = {};
  if (state.cats) pets.cats = String(state.cats);
  if (state.dogs) pets.dogs = String(state.dogs);
  try {
    const path = `/homes/${encodeURIComponent(state.home)}`;
    const dated = Object.keys(stay).length > 0;
    const [home, booking, quote] = await Promise.all([
      getJson<Apartment>(path),
      dated ? getJson<Apartment>(path, stay) : null,
      quoting
        ? getJson<Quote>(`/homes/${encodeURIComponent(state.home)}/quote`, { ...stay, ...pets }).then(
            (q) => ({ q, e: null }),
            (e: unknown) => ({ q: null, e: message(e) }),
          )
        : Promise.resolve({ q: null, e: null }),
    ]);
    show(
      homeView({
        home,
        booking: booking ?? home,
        quote: quote.q,
        quoteError: quote.e,
        // The quote form shows the one stay quoted; dates chosen there replace a flexible search's window.
        state: exactStay(state),
        backHref: searchHref(),
        onQuote: (choice) => navigate({ ...exactStay(current()), ...choice }),
      }),
    );
  } catch (err) {
    show(
      h(
        'section',
        {},
        h('p', {}, h('a', { href: searchHref() }, '← Back to results')),
        h('h2', {}, 'Apartment'),
        h('p', { class: 'error', role: 'alert' }, message(err)),
      ),
    );
  }
}

async function renderCompare(state: PageState): Promise<void> {
  const reads = await Promise.all(
    state.compare.map((slug) =>
      getJson<Apartment>(`/homes/${encodeURIComponent(slug)}`, stayParams(state)).then(
        (a) => ({ slug, a }),
        () => ({ slug, a: null }),
      ),
    ),
  );
  show(
    compareView({
      homes: reads.flatMap((r) => (r.a ? [r.a] : [])),
      missing: reads.filter((r) => !r.a).map((r) => r.slug),
      backHref: searchHref(),
      homeHref,
      onRemove: (slug) => navigate({ ...current(), compare: current().compare.filter((c) => c !== slug) }),
    }),
  );
}

async function renderPolicies(): Promise<void> {
  try {
    show(policiesView((await getJson<{ entries: PolicyEntry[] }>('/policies-faq')).entries, searchHref()));
  } catch (err) {
    show(h('section', {}, h('h2', {}, 'Policies'), h('p', { class: 'error', role: 'alert' }, message(err))));
  }
}

/** Counts the renders begun: only the newest marks the page ready (an older one may end after it began). */
let renders = 0;

async function render(): Promise<void> {
  const own = ++renders;
  // Not ready while a render is under way, even of the state already shown (Search pressed again).
  delete document.body.dataset.ready;
  const state = current();
  // A typed or older link is written back in the page's own form (unknown keys dropped, commas encoded).
  if (toQuery(state) !== (location.search || '?')) history.replaceState(null, '', toQuery(state));
  for (const a of document.querySelectorAll<HTMLAnchorElement>('[data-nav]')) {
    a.href = href({ view: a.dataset.nav as PageState['view'] });
    if (a.dataset.nav === state.view) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (state.view !== 'search') closeSearchShell();
  if (state.view === 'home' && state.home) await renderHome(state);
  else if (state.view === 'compare') await renderCompare(state);
  else if (state.view === 'policies') await renderPolicies();
  else await renderSearch(state);
  // A render that gave way to a newer one (the same state searched again) leaves the mark to it.
  if (own === renders) document.body.dataset.ready = toQuery(state);
}

// In-page links ("?…") change the state without a reload; the browser's own handling stays for the rest.
document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest?.('a');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const raw = a.getAttribute('href') ?? '';
  if (!raw.startsWith('?')) return;
  e.preventDefault();
  navigate(parseState(raw));
});
window.addEventListener('popstate', () => void render());
void render();
