/**
 * "Watch this search" under the results: the consent text, an email, and once saved
 * (POST /api/public/watches, watch_search_tool's arguments) the links to the watch's JSON feed and
 * Atom feed, shown this once (the token in them is a capability the service keeps only as a hash).
 */
import { h } from './dom';
import { filterParams, type PageState } from './state';

/** What the person agrees to by ticking the box: the watch's guest_consent. */
export const WATCH_CONSENT =
  'I agree that my email is saved with this search so I can be told when a home starts to match it, drops in price by 5 % or more, or leaves it. ' +
  'It is used for nothing else, and the watch ends on its last day, or when I end it.';

/** The search page's GET parameters under the names of the tool's arguments. */
const RENAMES: Readonly<Record<string, string>> = {
  check_in: 'start_date',
  latest_check_in: 'latest_start_date',
  check_out: 'end_date',
  bedrooms: 'min_bedrooms',
};
const NUMBERS = new Set(['min_bedrooms', 'max_price', 'nights', 'committed_nights']);

/** The search the page shows, as watch_search_tool's `search` argument. */
export function watchedSearch(state: PageState): Record<string, unknown> {
  const search: Record<string, unknown> = {};
  if (state.market && state.cityAlone) search.scope = { display_city: state.market };
  else if (state.market) search.market = state.market;
  if (state.market && state.building) search.building = state.building;
  else if (state.market && state.neighborhood) search.neighborhood = state.neighborhood;
  for (const [name, value] of Object.entries(filterParams(state))) {
    const arg = RENAMES[name] ?? name;
    if (arg === 'polygon') search.polygon = (state.polygon ?? []).map(([latitude, longitude]) => ({ latitude, longitude }));
    else if (NUMBERS.has(arg)) search[arg] = Number(value);
    else search[arg] = value === 'true' ? true : value;
  }
  return search;
}

interface SavedWatch {
  feed_url: string;
  atom_url: string;
  expires_on: string;
}

/** The section, for the state the page shows. */
export function watchForm(state: PageState): HTMLElement {
  const status = h('div', { class: 'watch-status', role: 'status', id: 'watch-status' });
  const email = h('input', { id: 'watch-email', type: 'email', name: 'email', autocomplete: 'email', required: true });
  const consent = h('input', { id: 'watch-consent', type: 'checkbox', name: 'guest_consent', required: true, 'aria-describedby': 'watch-consent-text' });
  const button = h('button', { type: 'submit' }, 'Watch this search');
  const form = h(
    'form',
    { class: 'watch-form', novalidate: true },
    h('p', { id: 'watch-consent-text', class: 'watch-consent-text' }, WATCH_CONSENT),
    h('div', { class: 'field' }, h('label', { for: 'watch-email' }, 'Email'), email),
    h('div', { class: 'field check' }, consent, h('label', { for: 'watch-consent' }, 'I agree')),
    button,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!email.value || !email.checkValidity()) return void say(status, 'Enter the email to tell.', true);
    if (!consent.checked) return void say(status, 'Tick “I agree” to save the watch.', true);
    button.disabled = true;
    void save({ search: watchedSearch(state), email: email.value, guest_consent: true }).then(
      (saved) => {
        form.replaceChildren();
        status.replaceChildren(
          h('p', {}, `Watching this search until ${saved.expires_on}. Keep these links: they are shown this once.`),
          h(
            'ul',
            { class: 'watch-links' },
            h('li', {}, h('a', { href: saved.feed_url, id: 'watch-feed' }, 'Changes (JSON feed)')),
            h('li', {}, h('a', { href: saved.atom_url, id: 'watch-atom' }, 'Changes (Atom feed, for a feed reader)')),
          ),
        );
      },
      (err: unknown) => {
        button.disabled = false;
        say(status, err instanceof Error ? err.message : 'The watch could not be saved. Try again.', true);
      },
    );
  });
  return h('section', { class: 'watch', 'aria-labelledby': 'watch-title' }, h('h2', { id: 'watch-title' }, 'Watch this search'), form, status);
}

function say(status: HTMLElement, text: string, error: boolean): void {
  status.replaceChildren(h('p', { class: error ? 'error' : '' }, text));
}

async function save(body: Record<string, unknown>): Promise<SavedWatch> {
  const res = await fetch('/api/public/watches', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => null)) as (SavedWatch & { error?: { message: string } }) | null;
  if (!res.ok || !answer) throw new Error(answer?.error?.message ?? 'The watch could not be saved. Try again.');
  return answer;
}
