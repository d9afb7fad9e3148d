/**
 * The search form's one box, for a place and for words (the WAI-ARIA combobox pattern, with a listbox
 * popup). As a person types, the places that complete the text (GET /suggest, SUGGEST_PAUSE_MS after
 * the last key) are listed under it. ArrowDown and ArrowUp move through them, Enter picks the active
 * one, Escape closes the list, a click picks one. A picked place becomes the search's place (the
 * market, with its neighborhood or building) and is shown beside the box, which empties: what the
 * person typed was the place's name. What stays in the box is words, searched as q in that place
 * (Enter with no active option, or the Search button). The place's remove button searches without it.
 */
import { MAX_Q_CHARS, MAX_SUGGEST_CHARS } from '../../kernel/limits/typed-text';
import { getJson, type Market, type Suggestion } from './api';
import { h } from './dom';
import { marketName, NO_PLACE, rememberPlace, type Place } from './place-label';

/** The list is asked this long after the last key. */
export const SUGGEST_PAUSE_MS = 150;
const SUGGEST_LIMIT = 8;
const INPUT_ID = 'f-place';
const LIST_ID = 'f-place-list';
const CHOSEN_ID = 'f-place-chosen';
const ERROR_ID = 'f-place-error';

export interface PlaceBoxProps {
  markets: Market[];
  place: Place;
  /** The place's name (place-label.ts), '' for no place. */
  label: string;
  /** The words searched (q), shown in the box. */
  words: string;
  /** A place was picked or removed: search now. */
  onPlace(): void;
}

export interface PlaceBox {
  /** The labelled field: the box, its list, the place chosen and the message. */
  element: HTMLElement;
  place(): Place;
  /** The box's text as typed. */
  words(): string;
  /** With no place chosen, picks the best place completing the typed text (as a pick, it searches); false when none does. */
  completeTyped(): Promise<boolean>;
  /** Says why the form cannot search, next to the box; null clears it. */
  showError(message: string | null): void;
}

/** Text the place list can complete: a letter or digit, within MAX_SUGGEST_CHARS once trimmed. */
const completable = (text: string): boolean => text.trim().length <= MAX_SUGGEST_CHARS && /[\p{L}\p{N}]/u.test(text);

const placeOf = ({ search }: Suggestion): Place =>
  'scope' in search
    ? { market: search.scope.display_city, cityAlone: true, neighborhood: '', building: '' }
    : { market: search.market, cityAlone: false, neighborhood: search.neighborhood ?? '', building: search.building ?? '' };

function kindOf(s: Suggestion, markets: Market[]): string {
  const market = marketName(s.market, markets) ?? s.market;
  switch (s.type) {
    case 'market':
      return 'All of the market';
    case 'city':
      return `City · ${market}`;
    case 'neighborhood':
      return `Neighborhood · ${market}`;
    case 'building':
      return `Building · ${market}`;
  }
}

export function placeBox(props: PlaceBoxProps): PlaceBox {
  let place = props.place;
  let options: Suggestion[] = [];
  /** The text the listed options complete. */
  let listedFor = '';
  let active = -1;
  let timer: number | undefined;
  let asking: AbortController | null = null;

  const input = h('input', {
    id: INPUT_ID,
    name: 'q',
    type: 'text',
    role: 'combobox',
    'aria-autocomplete': 'list',
    'aria-expanded': 'false',
    'aria-controls': LIST_ID,
    autocomplete: 'off',
    spellcheck: 'false',
    maxlength: MAX_Q_CHARS,
    value: props.words,
  });
  const list = h('ul', { id: LIST_ID, role: 'listbox', 'aria-label': 'Places', class: 'place-list', hidden: true });
  const chosenName = h('span', { class: 'place-name' });
  const chosen = h('span', { id: CHOSEN_ID }, h('span', { class: 'visually-hidden' }, 'Place chosen: '), chosenName);
  const remove = h('button', { type: 'button', class: 'place-remove' }, '×');
  const chip = h('span', { class: 'place-chip' }, chosen, remove);
  const error = h('p', { id: ERROR_ID, class: 'error place-error', role: 'alert', hidden: true });

  const describe = (): void => {
    const ids = [place.market ? CHOSEN_ID : '', error.hidden ? '' : ERROR_ID].filter(Boolean).join(' ');
    if (ids) input.setAttribute('aria-describedby', ids);
    else input.removeAttribute('aria-describedby');
    if (error.hidden) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  };
  const showPlace = (label: string): void => {
    chip.hidden = !place.market;
    input.placeholder = place.market ? 'Words, or another place' : 'City, neighborhood or building';
    chosenName.textContent = label;
    remove.setAttribute('aria-label', `Remove the place ${label}`);
    describe();
  };
  const showError = (message: string | null): void => {
    error.hidden = message === null;
    error.textContent = message ?? '';
    describe();
  };

  const optionId = (i: number): string => `${LIST_ID}-${i}`;
  const setActive = (i: number): void => {
    active = i;
    for (const [j, li] of [...list.children].entries()) li.setAttribute('aria-selected', String(j === i));
    if (i < 0) input.removeAttribute('aria-activedescendant');
    else {
      input.setAttribute('aria-activedescendant', optionId(i));
      list.children[i]?.scrollIntoView({ block: 'nearest' });
    }
  };
  const close = (): void => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    setActive(-1);
  };
  const open = (): void => {
    if (options.length === 0) return close();
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  };

  /** Closes the list and drops the question the last key asked: no late answer opens it again. */
  const dismiss = (): void => {
    window.clearTimeout(timer);
    asking?.abort();
    close();
  };

  const pick = (s: Suggestion): void => {
    dismiss();
    place = placeOf(s);
    rememberPlace(place, s.label);
    input.value = '';
    options = [];
    listedFor = '';
    list.replaceChildren();
    showError(null);
    showPlace(s.label);
    props.onPlace();
  };

  const showOptions = (text: string, found: Suggestion[]): void => {
    options = found;
    listedFor = text;
    list.replaceChildren(
      ...found.map((s, i) => {
        const li = h(
          'li',
          { id: optionId(i), role: 'option', 'aria-selected': 'false', 'data-type': s.type, 'data-slug': s.slug },
          h('span', { class: 'place-label' }, s.label),
          ' ',
          h('span', { class: 'place-kind' }, kindOf(s, props.markets)),
        );
        // The box keeps the focus (and the list stays open) until the click picks.
        li.addEventListener('mousedown', (e) => e.preventDefault());
        li.addEventListener('click', () => pick(s));
        return li;
      }),
    );
    active = -1;
    if (document.activeElement === input) open();
  };

  /** The places completing `text` ([] for text nothing completes, or a refusal), or null when a newer question replaced it. */
  const ask = async (text: string): Promise<Suggestion[] | null> => {
    asking?.abort();
    if (!completable(text)) return [];
    const controller = new AbortController();
    asking = controller;
    try {
      // A space typed after a word is sent: it ends the word ("park " is not "Parkside").
      const answer = await getJson<{ suggestions: Suggestion[] }>('/suggest', { q: text.trimStart(), limit: String(SUGGEST_LIMIT) }, controller.signal);
      return controller.signal.aborted ? null : answer.suggestions;
    } catch {
      return controller.signal.aborted ? null : [];
    }
  };

  const typed = (): void => {
    window.clearTimeout(timer);
    showError(null);
    const text = input.value;
    if (!completable(text)) {
      asking?.abort();
      options = [];
      listedFor = '';
      list.replaceChildren();
      close();
      return;
    }
    timer = window.setTimeout(() => {
      void ask(text).then((found) => {
        if (found !== null && input.value === text) showOptions(text, found);
      });
    }, SUGGEST_PAUSE_MS);
  };

  input.addEventListener('input', typed);
  input.addEventListener('blur', close);
  // Back in the box, the list of its text is shown again.
  input.addEventListener('focus', () => {
    if (listedFor === input.value) open();
  });
  input.addEventListener('keydown', (e) => {
    const shown = !list.hidden;
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (options.length === 0 || listedFor !== input.value) return;
        e.preventDefault();
        open();
        const step = e.key === 'ArrowDown' ? 1 : -1;
        const from = shown ? active : -1;
        setActive(from < 0 ? (step > 0 ? 0 : options.length - 1) : (from + step + options.length) % options.length);
        return;
      }
      case 'Enter':
        if (shown && active >= 0) {
          e.preventDefault();
          pick(options[active]);
        } else dismiss(); // the form searches the words
        return;
      case 'Escape':
        if (shown) e.preventDefault();
        dismiss();
        return;
    }
  });
  remove.addEventListener('click', () => {
    place = NO_PLACE;
    showPlace('');
    input.focus();
    props.onPlace();
  });

  showPlace(props.label);
  return {
    element: h(
      'div',
      { class: 'field place-field' },
      h('label', { for: INPUT_ID }, 'Place or words'),
      h('div', { class: 'place-box' }, chip, input, list),
      error,
    ),
    place: () => place,
    words: () => input.value,
    async completeTyped() {
      if (place.market) return true;
      // Asked now, in place of the list the last key would ask for.
      dismiss();
      const text = input.value;
      const found = listedFor === text ? options : await ask(text);
      if (!found?.length || input.value !== text) return false;
      pick(found[0]);
      return true;
    },
    showError,
  };
}
