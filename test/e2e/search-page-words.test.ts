/**
 * The search page's one box in headless Chromium (services/web/app/place-box.ts): typed letters list
 * the places GET /api/public/suggest completes, in a WAI-ARIA combobox's listbox; the keyboard moves
 * through them and picks one, which searches the place (its URL, and the list the GET API answers for
 * it); a typo still completes; Escape closes the list. Words that are not a picked place are searched
 * as q in the place: the cards show the fields they matched with the words marked, the URL keeps q and
 * a reload restores it. Each state is checked with axe-core and photographed into test-artifacts/
 * (setup: test/e2e/shared/search-page-browser.ts).
 */
import type { Browser, Page } from 'playwright-core';
import { fragmentRuns, matchedFieldName } from '../../services/kernel/text/marked-fragment';
import type { Fixture } from '../support/fixture';
import { placeOption, query, rendered, shownSlugs, waitUntil, type Answer, type SuggestedPlace } from '../support/search-page';
import { PER_PAGE, searchPageHelpers, startSearchPageWorld } from './shared/search-page-browser';
import { getParamsOf } from '../support/place-search';

let fx: Fixture;
let browser: Browser;
let market: string;

beforeAll(async () => {
  ({ fx, browser, market } = await startSearchPageWorld());
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await fx?.close();
});

const { api, newPage, check } = searchPageHelpers(() => ({ fx, browser }));

interface WordsAnswer extends Answer {
  homes: Array<Answer['homes'][number] & { matched?: Array<{ field: string; text: string }> }>;
}

/** The places the box lists for a text: what GET /suggest answers with the box's limit. */
const suggested = async (text: string): Promise<SuggestedPlace[]> =>
  (await api<{ suggestions: SuggestedPlace[] }>(`/api/public/suggest?${query({ q: text, limit: '8' })}`)).suggestions;

/** The options the box shows, as [type, slug, label]. */
const shownOptions = (page: Page): Promise<string[][]> =>
  page
    .locator('#f-place-list [role="option"]')
    .evaluateAll((els) =>
      els.map((e) => [e.getAttribute('data-type') ?? '', e.getAttribute('data-slug') ?? '', e.querySelector('.place-label')?.textContent ?? '']),
    );

const expanded = (page: Page): Promise<string | null> => page.getAttribute('#f-place', 'aria-expanded');

/** Waits for the list the box shows after typing (its debounced request answered). */
async function listShown(page: Page): Promise<void> {
  await waitUntil(page, `document.getElementById('f-place').getAttribute('aria-expanded') === 'true'`);
}

/** The first page of the list, as the page asks it (its facets do not change the homes). */
const firstPage = (args: Record<string, string>): Promise<WordsAnswer> =>
  api<WordsAnswer>(`/api/public/search?${query({ ...args, page: '1', per_page: String(PER_PAGE) })}`);

/** A city of the market the page searches, named by at least 6 letters, that is not the market's own slug. */
async function cityOfMarket(): Promise<{ slug: string; name: string }> {
  const { markets } = await api<{ markets: Array<{ slug: string; cities: Array<{ slug: string; name: string }> }> }>('/api/public/markets');
  const city = markets.find((m) => m.slug === market)!.cities.find((c) => c.slug !== market && /^\p{L}{6,}$/u.test(c.name));
  expect(city).toBeDefined();
  return city!;
}

describe('the place box', () => {
  it('lists the places a typed prefix completes, and ArrowDown and Enter pick one: the place is searched and the URL names it', async () => {
    const city = await cityOfMarket();
    // The shortest prefix whose list holds the city: the keyboard moves through the places before it.
    let prefix = '';
    let places: SuggestedPlace[] = [];
    let at = -1;
    for (let n = 1; at < 0 && n <= city.name.length; n++) {
      prefix = city.name.slice(0, n).toLowerCase();
      places = await suggested(prefix);
      at = places.findIndex((p) => p.type === 'city' && p.slug === city.slug);
    }
    expect(at).toBeGreaterThanOrEqual(0);
    const { page, requests } = await newPage(1280, 860);
    try {
      await page.goto(fx.url + '/');
      await rendered(page);
      expect(await page.getAttribute('#f-place', 'role')).toBe('combobox');
      expect(await expanded(page)).toBe('false');
      await page.focus('#f-place');
      await page.keyboard.type(prefix);
      await listShown(page);
      expect(await page.isVisible('#f-place-list')).toBe(true);
      expect(await shownOptions(page)).toEqual(places.map((p) => [p.type, p.slug, p.label]));
      expect(await page.getAttribute('#f-place', 'aria-activedescendant')).toBeNull();
      await check(page, 'page-words-1-listed.png');

      // ArrowDown moves the active option (aria-activedescendant), the focus stays in the box.
      for (let i = 0; i <= at; i++) await page.keyboard.press('ArrowDown');
      const activeId = await page.getAttribute('#f-place', 'aria-activedescendant');
      expect(activeId).not.toBeNull();
      const active = page.locator(`[id="${activeId}"]`);
      expect([await active.getAttribute('data-type'), await active.getAttribute('data-slug'), await active.getAttribute('aria-selected')]).toEqual([
        'city',
        city.slug,
        'true',
      ]);
      expect(await page.locator('#f-place-list [aria-selected="true"]').count()).toBe(1);
      expect(await page.evaluate('document.activeElement?.id')).toBe('f-place');
      // ArrowUp moves back and ArrowDown again to the same place.
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowDown');
      expect(await page.getAttribute('#f-place', 'aria-activedescendant')).toBe(activeId);
      await check(page, 'page-words-2-active.png');

      await page.keyboard.press('Enter');
      await rendered(page);
      const url = new URL(page.url()).searchParams;
      expect(Object.fromEntries(url)).toEqual(getParamsOf(places[at].search));
      expect(await page.inputValue('#f-place')).toBe('');
      expect(await page.locator('.place-chip .place-name').textContent()).toBe(city.name);
      expect(await expanded(page)).toBe('false');
      const answer = await firstPage(getParamsOf(places[at].search));
      expect(answer.total_count).toBeGreaterThan(0);
      expect(await shownSlugs(page)).toEqual(answer.homes.map((h) => h.slug));
      expect(await page.locator('#results-heading').textContent()).toBe(`${answer.total_count} home${answer.total_count === 1 ? '' : 's'} in ${city.name}`);
      await check(page, 'page-words-3-picked.png');
      expect(requests.filter((u) => u.startsWith('pageerror'))).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('completes a city typed with two letters swapped, a click picks it, and Escape closes the list without searching', async () => {
    const city = await cityOfMarket();
    const name = city.name;
    const typo = name[0] + name[2] + name[1] + name.slice(3);
    const places = await suggested(typo);
    const place = places.find((p) => p.type === 'city' && p.slug === city.slug);
    expect(place).toBeDefined();
    const { page } = await newPage(1100, 800);
    try {
      await page.goto(fx.url + '/');
      await rendered(page);
      const before = page.url();
      await page.focus('#f-place');
      await page.keyboard.type(typo);
      await listShown(page);
      expect(await shownOptions(page)).toEqual(places.map((p) => [p.type, p.slug, p.label]));
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Escape');
      expect(await expanded(page)).toBe('false');
      expect(await page.isVisible('#f-place-list')).toBe(false);
      expect(await page.getAttribute('#f-place', 'aria-activedescendant')).toBeNull();
      expect(await page.inputValue('#f-place')).toBe(typo);
      expect(page.url()).toBe(before);
      await check(page, 'page-words-4-closed.png');

      // Typing again lists the places again; a click on one picks it.
      await page.keyboard.press('Backspace');
      await page.keyboard.type(typo.slice(-1));
      await listShown(page);
      await placeOption(page, place!).click();
      await rendered(page);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual(getParamsOf(place!.search));
      expect(await shownSlugs(page)).toEqual((await firstPage(getParamsOf(place!.search))).homes.map((h) => h.slug));
    } finally {
      await page.close();
    }
  });

  it('sends a space typed after a word, which ends the word, and lists what the API answers for it', async () => {
    const city = await cityOfMarket();
    const word = city.name.split(' ')[0];
    const { page, requests } = await newPage(1100, 800);
    try {
      await page.goto(fx.url + '/');
      await rendered(page);
      await page.focus('#f-place');
      await page.keyboard.type(`${word} `);
      await listShown(page);
      const asked = requests.filter((u) => u.includes('/api/public/suggest?')).map((u) => new URL(u).searchParams.get('q'));
      expect(asked[asked.length - 1]).toBe(`${word} `);
      expect(await shownOptions(page)).toEqual((await suggested(`${word} `)).map((p) => [p.type, p.slug, p.label]));
    } finally {
      await page.close();
    }
  });

  it('searches the best place completing the text when Search is pressed with no place chosen', async () => {
    const city = await cityOfMarket();
    const best = (await suggested(city.name))[0];
    const { page } = await newPage(1100, 800);
    try {
      await page.goto(fx.url + '/');
      await rendered(page);
      await page.fill('#f-place', city.name);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await waitUntil(page, "['market', 'display_city'].some((p) => new URLSearchParams(location.search).has(p))");
      await rendered(page);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual(getParamsOf(best.search));
      expect(await page.inputValue('#f-place')).toBe('');
    } finally {
      await page.close();
    }
  });
});

describe('a shared link of a part of a market', () => {
  it('names its neighborhood or building beside the box as the place box lists it, and shows its search', async () => {
    const { neighborhoods } = await api<{ neighborhoods: Array<{ slug: string; name: string }> }>(`/api/public/market-filters?${query({ market })}`);
    expect(neighborhoods.length).toBeGreaterThan(0);
    const hood = neighborhoods[0];
    const { homes } = await firstPage({ market });
    const { property } = await api<{ property: { slug: string; name: string } }>(`/api/public/homes/${homes[0].slug}`);
    const places = [
      (await suggested(hood.name)).find((p) => p.type === 'neighborhood' && p.slug === hood.slug),
      (await suggested(property.name)).find((p) => p.type === 'building' && p.slug === property.slug),
    ];
    const { page } = await newPage(1100, 800);
    try {
      for (const place of places) {
        expect(place).toBeDefined();
        await page.goto(`${fx.url}/?${query(getParamsOf(place!.search))}`);
        await rendered(page);
        expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual(getParamsOf(place!.search));
        expect(await page.locator('.place-chip .place-name').textContent()).toBe(place!.label);
        const answer = await firstPage(getParamsOf(place!.search));
        expect(answer.total_count).toBeGreaterThan(0);
        expect(await shownSlugs(page)).toEqual(answer.homes.map((h) => h.slug));
        expect(await page.locator('#results-heading').textContent()).toBe(
          `${answer.total_count} home${answer.total_count === 1 ? '' : 's'} in ${place!.label}`,
        );
      }
      await check(page, 'page-words-8-building.png');
    } finally {
      await page.close();
    }
  });
});

describe('words in the box', () => {
  it('searches the words as q in the chosen place: the cards mark what matched, the URL keeps q and a reload restores it', async () => {
    // A building amenity of the world that some homes of the market have and others do not.
    const { total_count: all } = await firstPage({ market });
    let word = '';
    let answer: WordsAnswer | undefined;
    for (const candidate of ['coworking', 'rooftop', 'concierge', 'doorman', 'lounge', 'courtyard', 'grill']) {
      const a = await firstPage({ market, q: candidate });
      if (a.total_count > 0 && a.total_count < all && a.homes.some((h) => h.matched?.some((m) => m.field === 'building_amenities'))) {
        [word, answer] = [candidate, a];
        break;
      }
    }
    expect(answer).toBeDefined();
    const { page, requests } = await newPage(1280, 900);
    try {
      await page.goto(`${fx.url}/?${query({ market })}`);
      await rendered(page);
      await page.focus('#f-place');
      await page.keyboard.type(word);
      // With no option active, Enter searches the typed words (whatever places they also complete).
      await page.keyboard.press('Enter');
      await waitUntil(page, `new URLSearchParams(location.search).get('q') === ${JSON.stringify(word)}`);
      await rendered(page);

      const showsAnswer = async (p: Page): Promise<void> => {
        expect(Object.fromEntries(new URL(p.url()).searchParams)).toEqual({ market, q: word });
        expect(await p.inputValue('#f-place')).toBe(word);
        expect(await shownSlugs(p)).toEqual(answer!.homes.map((h) => h.slug));
        expect(await p.locator('#results-heading').textContent()).toContain(`${answer!.total_count} home`);
        expect(await p.locator('#results-heading').textContent()).toContain(`“${word}”`);
        // Each card: one line per matched field, the field in words, the fragment's text with its marked words in <mark>.
        for (const home of answer!.homes) {
          const lines = p.locator(`#result-${home.slug} .matched li`);
          expect(await lines.allTextContents()).toEqual(
            home.matched!.map(
              (m) =>
                `${matchedFieldName(m.field)}: ${fragmentRuns(m.text)
                  .map((r) => r.text)
                  .join('')}`,
            ),
          );
          expect(await p.locator(`#result-${home.slug} .matched mark`).allTextContents()).toEqual(
            home.matched!.flatMap((m) =>
              fragmentRuns(m.text)
                .filter((r) => r.marked)
                .map((r) => r.text),
            ),
          );
        }
        expect(await p.locator('.result .matched mark').count()).toBeGreaterThan(0);
        // Nothing but the field's name and the marks is an element: the server's text is never parsed as HTML.
        expect(new Set(await p.locator('.result .matched li *').evaluateAll((els) => els.map((e) => e.tagName)))).toEqual(new Set(['SPAN', 'MARK']));
        const amenity = p.locator('.result .matched li', { hasText: `${matchedFieldName('building_amenities')}:` }).first();
        expect((await amenity.locator('mark').first().textContent())!.toLowerCase()).toContain(word.slice(0, 4));
      };
      await showsAnswer(page);
      await check(page, 'page-words-5-matched.png');

      await page.reload();
      await rendered(page);
      await showsAnswer(page);
      await check(page, 'page-words-6-reloaded.png');

      // The place chosen is named beside the box; removing it leaves the words, and a place is asked for.
      expect(await page.locator('.place-chip .place-name').textContent()).not.toBe('');
      await page.getByRole('button', { name: /^Remove the place / }).click();
      await rendered(page);
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ q: word });
      expect(await page.locator('.result').count()).toBe(0);
      expect(await page.locator('.hint').textContent()).toContain(`“${word}”`);
      await check(page, 'page-words-7-no-place.png');
      expect(requests.filter((u) => u.startsWith('pageerror'))).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
