/**
 * Word search (`q`) on the apartment, map and building searches over real HTTP and the real tool
 * server, on a generated world: every result holds q's words (by stem, typo, prefix or synonym, as the
 * pure matcher of services/kernel/text/ decides) and no home of the place that holds them is missing
 * (total_count against a scan of the world); q composes with filters and facets as an intersection;
 * relevance puts a building's homes first when q spells its name; `matched` marks why; bad q is
 * refused with the error object and Elasticsearch's query syntax is plain text.
 */
import { mulberry32 } from '../../stack/demo/prng';
import { startFixture, testConfig, type Fixture } from '../support/fixture';
import { startService, type RunningService } from '../../services/main';
import { expectedResults, loadWorld, type World } from '../support/search-model';
import { homeTexts } from '../../services/kernel/text/home-texts';
import { placeDocuments } from '../../services/kernel/text/place-suggestions';
import { matchedFragment, withinFuzziness } from '../../services/kernel/text/matched';
import { queryPlan } from '../../services/kernel/text/query-plan';
import { wordsOf } from '../../services/kernel/text/words';
import { runs } from '../support/property-runs';
import { judge, judgedQueries } from '../support/judged-queries';
import { recordChanges } from '../../services/kernel/store/inventory-changes';
import { incrementalRun } from '../../indexer/incremental';
import { getParamsOf, type PlaceSearchArgs } from '../support/place-search';

let fx: Fixture;
/** A copy that trusts no index generation (READ_CACHE=false): no vocabulary, so q's typos and prefixes go to Elasticsearch's own clauses. */
let clauses: RunningService;
let world: World;
let market: string;

type Home = { slug: string; matched?: Array<{ field: string; text: string }> } & Record<string, unknown>;

beforeAll(async () => {
  fx = await startFixture({ homes: 400, seed: 21 });
  clauses = await startService(testConfig({ MONGO_DB: fx.config.mongoDb, HOMES_ALIAS: fx.config.homesAlias, READ_CACHE: 'false' }));
  world = await loadWorld(fx.mongo.collections, fx.today);
  const counts = new Map<string, number>();
  for (const m of world.homes) counts.set(m.home.market_slug, (counts.get(m.home.market_slug) ?? 0) + 1);
  market = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
}, 240_000);

afterAll(async () => {
  await clauses?.close();
  await fx?.close();
});

/** The homes of the market (searchable, undated) whose texts hold q, as the pure matcher decides. */
function scan(q: string, args: Record<string, unknown> = {}): string[] {
  const plan = queryPlan(q);
  return expectedResults(world, { market, ...args })
    .filter((r) => homeTexts(r.m.home, r.m.property, r.m.market).some((t) => matchedFragment(t.text, plan) !== null))
    .map((r) => r.slug)
    .sort();
}

async function allPages(args: Record<string, string>): Promise<{ homes: Home[]; total: number }> {
  const homes: Home[] = [];
  for (let page = 1; ; page++) {
    const res = await fx.get(`/api/public/search?${new URLSearchParams({ market, ...args, page: String(page), per_page: '100' })}`);
    expect(res.status).toBe(200);
    homes.push(...(res.body.homes as Home[]));
    if (page >= res.body.total_pages) return { homes, total: res.body.total_count as number };
  }
}

const slugs = (homes: Home[]): string[] => homes.map((h) => h.slug).sort();

describe('q on the apartment search', () => {
  it('finds exactly the homes of a market whose texts hold a word drawn from the inventory, with its stem, a typo or its start, with the vocabulary or without', async () => {
    const rnd = mulberry32(7);
    const vocabulary = [
      ...new Set(
        world.homes
          .filter((m) => m.home.market_slug === market)
          .flatMap((m) => homeTexts(m.home, m.property, m.market).flatMap((t) => wordsOf(t.text).map((w) => t.text.slice(w.start, w.end)))),
      ),
    ].filter((w) => /^\p{L}{3,}$/u.test(w));
    expect(vocabulary.length).toBeGreaterThan(50);
    for (let i = 0; i < runs(12); i++) {
      const word = vocabulary[Math.floor(rnd() * vocabulary.length)];
      // The word as found, plural, with a typo (not on the first letter) once long enough, and cut to its start.
      const forms = [word, `${word}s`];
      if (word.length >= 5) forms.push(word[0] + word.slice(2, 3) + word.slice(1, 2) + word.slice(3));
      if (word.length >= 6) forms.push(word.slice(0, word.length - 2));
      for (const q of forms) {
        const expected = scan(q);
        const { homes, total } = await allPages({ q });
        expect({ q, total }).toEqual({ q, total: expected.length });
        expect({ q, slugs: slugs(homes) }).toEqual({ q, slugs: expected });
        for (const h of homes) expect({ q, slug: h.slug, matched: (h.matched ?? []).length > 0 }).toEqual({ q, slug: h.slug, matched: true });
        // Without the vocabulary (Elasticsearch's fuzzy and prefix clauses), the same count.
        const alone = (await (await fetch(`${clauses.url}/api/public/search?${new URLSearchParams({ market, q, per_page: '1' })}`)).json()) as {
          total_count: number;
        };
        expect({ q, clauses: alone.total_count }).toEqual({ q, clauses: expected.length });
      }
    }
  }, 300_000);

  it('reads a synonym as its group: "w/d", "washer/dryer" and "in-unit laundry" find the same homes; "gym" finds a fitness center', async () => {
    const laundry = await Promise.all(['w/d', 'washer/dryer', 'in-unit laundry'].map((q) => allPages({ q })));
    expect(laundry[0].total).toBeGreaterThan(0);
    expect(slugs(laundry[1].homes)).toEqual(slugs(laundry[0].homes));
    expect(slugs(laundry[2].homes)).toEqual(slugs(laundry[0].homes));
    const gym = await allPages({ q: 'gym' });
    expect(slugs(gym.homes)).toEqual(scan('gym'));
    expect(scan('gym')).toEqual(scan('fitness center'));
  });

  it('finds by its pet policy: "pet friendly" and "pets allowed" are the homes the pets filter keeps, "dog friendly" those of dogs', async () => {
    const [friendly, allowed, filtered] = await Promise.all([allPages({ q: 'pet friendly' }), allPages({ q: 'pets allowed' }), allPages({ pets: 'true' })]);
    expect(filtered.total).toBeGreaterThan(0);
    expect(slugs(friendly.homes)).toEqual(slugs(filtered.homes));
    expect(slugs(allowed.homes)).toEqual(slugs(filtered.homes));
    expect(friendly.homes.every((h) => h.matched?.some((m) => m.field === 'pets' && m.text === '<mark>Pets allowed</mark>'))).toBe(true);
    const [dogs, dogFilter] = await Promise.all([allPages({ q: 'dog friendly' }), allPages({ dogs: 'true' })]);
    expect(dogFilter.total).toBeLessThan(filtered.total);
    expect(slugs(dogs.homes)).toEqual(slugs(dogFilter.homes));
  });

  it('composes with filters as an intersection, GET and MCP alike, and counts facets over the matches of q', async () => {
    const q = 'pool';
    const both = await allPages({ q, bedrooms: '1', pets: 'true' });
    const text = new Set(slugs((await allPages({ q })).homes));
    const filtered = (await allPages({ bedrooms: '1', pets: 'true' })).homes.map((h) => h.slug).filter((s) => text.has(s));
    expect(slugs(both.homes)).toEqual(filtered.sort());
    const client = await fx.mcp();
    const tool = (await client.callTool({ name: 'search_apartments_tool', arguments: { market, q, min_bedrooms: 1, pets: true, per_page: 100 } }))
      .structuredContent as { homes: Home[]; total_count: number };
    expect(tool.total_count).toBe(both.total);
    expect(tool.homes.map((h) => h.slug)).toEqual(both.homes.slice(0, 100).map((h) => h.slug));
    const faceted = await fx.get(`/api/public/search?${new URLSearchParams({ market, q, facets: 'true', per_page: '1' })}`);
    for (const f of faceted.body.facets.filters as Array<{ filter: string; count: number }>) {
      const { total } = await allPages({ q, [f.filter]: 'true' });
      expect({ filter: f.filter, count: f.count }).toEqual({ filter: f.filter, count: total });
    }
  }, 120_000);

  it("ranks a building's homes first when q spells its name, even with a typo, and an explicit sort_by orders the matches instead", async () => {
    const inMarket = world.homes.filter((m) => m.home.market_slug === market && expectedResults(world, { market }).some((r) => r.slug === m.home.slug));
    const named = inMarket.find((m) => /^\p{L}{6,} \p{L}+/u.test(m.property.name))!;
    const name = named.property.name;
    const ofBuilding = inMarket.filter((m) => m.property._id === named.property._id).map((m) => m.home.slug);
    const first = (await allPages({ q: name })).homes.slice(0, ofBuilding.length).map((h) => h.slug);
    expect(first.sort()).toEqual([...ofBuilding].sort());
    const typo = name[0] + name[2] + name[1] + name.slice(3);
    const firstTypo = (await allPages({ q: typo })).homes.slice(0, ofBuilding.length).map((h) => h.slug);
    expect(firstTypo.sort()).toEqual([...ofBuilding].sort());
    const byPrice = await allPages({ q: name, sort_by: 'price_asc' });
    const prices = byPrice.homes.map((h) => h.display_price_with_discount as number);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('marks the matched words and escapes the rest; without q an answer has no matched key', async () => {
    const res = await fx.get(`/api/public/search?${new URLSearchParams({ market, q: 'pools', per_page: '5' })}`);
    expect(res.body.homes.length).toBeGreaterThan(0);
    for (const h of res.body.homes as Home[]) {
      expect(h.matched!.length).toBeGreaterThan(0);
      for (const m of h.matched!) {
        expect(m.text).toMatch(/<mark>[^<]*<\/mark>/);
        expect(m.text.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
      }
    }
    const plain = await fx.get(`/api/public/search?${new URLSearchParams({ market, per_page: '5' })}`);
    for (const h of plain.body.homes as Home[]) expect(h).not.toHaveProperty('matched');
  });

  it('refuses an empty, blank, too long or repeated q, and a q of no word, with invalid_parameters; query syntax is plain text', async () => {
    // Characters are code points: 201 letters outside the Basic Multilingual Plane are too long, as 201 plain ones.
    for (const q of ['', '   ', 'x'.repeat(201), '𝐚'.repeat(201), '*** ::: ((('])
      expect([q.slice(0, 20), (await fx.get(`/api/public/search?${new URLSearchParams({ market, q })}`)).body.error?.code]).toEqual([
        q.slice(0, 20),
        'invalid_parameters',
      ]);
    const twice = await fx.get(`/api/public/search?market=${market}&q=pool&q=gym`);
    expect([twice.status, twice.body.error?.code]).toEqual([400, 'invalid_parameters']);
    const client = await fx.mcp();
    const refused = await client.callTool({ name: 'search_apartments_tool', arguments: { market, q: ' ' } });
    expect(refused.isError).toBe(true);
    const noQ = await client.callTool({ name: 'search_apartments_tool', arguments: { market, sort_by: 'relevance' } });
    expect(noQ.isError).toBe(true);
    // 200 characters once trimmed, however many spaces around them; 101 letters of two UTF-16 units each.
    const padded = `${' '.repeat(150)}${'a'.repeat(200)}${' '.repeat(60)}`;
    for (const q of ['pool AND gym', 'name:pool', 'pool*', '"pool', '(pool', 'pool\\', 'x'.repeat(200), `${'a '.repeat(99)}a`, padded, '𝐚'.repeat(101)]) {
      const res = await fx.get(`/api/public/search?${new URLSearchParams({ market, q })}`);
      expect([q.slice(0, 20), res.status]).toEqual([q.slice(0, 20), 200]);
    }
  });
});

describe('relevance over the judged set', () => {
  it('puts a relevant home first and in the first ten for at least 95 % of 200 generated queries', async () => {
    const searchable = expectedResults(world, {}).map((r) => r.m);
    const set = judgedQueries(searchable, 200);
    expect(set.length).toBeGreaterThanOrEqual(200);
    const answers: string[][] = [];
    for (const j of set) {
      const res = await fx.get(`/api/public/search?${new URLSearchParams({ market: j.market, q: j.q, per_page: '10' })}`);
      expect([j.q, res.status]).toEqual([j.q, 200]);
      answers.push((res.body.homes as Home[]).map((h) => h.slug));
    }
    const { all, byKind } = judge(set, answers);
    const report = Object.fromEntries(
      [...byKind].map(([k, v]) => [k, `${v.queries} queries, P@10 ${v.precisionAt10.toFixed(3)}, first ${v.firstRight.toFixed(3)}`]),
    );
    expect({ ...all, report }).toEqual({ precisionAt10: expect.any(Number), firstRight: expect.any(Number), report });
    expect({ precisionAt10: all.precisionAt10 >= 0.95, firstRight: all.firstRight >= 0.95, all, report }).toEqual({
      precisionAt10: true,
      firstRight: true,
      all,
      report,
    });
  }, 120_000);
});

describe('q on the map and building searches', () => {
  it('narrows the map to the same homes as the list, and the building search to buildings with a matching unit, each unit with its matched', async () => {
    const q = 'pool';
    const list = await allPages({ q });
    const map = await fx.get(`/api/public/map-search?${new URLSearchParams({ market, q })}`);
    expect(map.status).toBe(200);
    expect(map.body.total_count).toBe(list.total);
    const client = await fx.mcp();
    const buildings = (await client.callTool({ name: 'search_properties_tool', arguments: { market, q, per_page: 50 } })).structuredContent as {
      properties: Array<{ units: Array<{ slug: string; matched?: Home['matched'] }>; matched?: Home['matched'] }>;
    };
    expect(buildings.properties.length).toBeGreaterThan(0);
    const listed = new Map(list.homes.map((h) => [h.slug, h]));
    for (const b of buildings.properties) {
      // A unit is a home of the list: it matched the same fields, marked the same way.
      for (const u of b.units) expect([u.slug, u.matched]).toEqual([u.slug, listed.get(u.slug)?.matched]);
      // The building's matched fields are those of the first unit it lists.
      expect(b.matched).toEqual(b.units[0].matched);
      expect(b.matched!.some((m) => /<mark>/.test(m.text))).toBe(true);
    }
    const plain = (await client.callTool({ name: 'search_properties_tool', arguments: { market, per_page: 5 } })).structuredContent as {
      properties: Array<{ units: Array<Record<string, unknown>> } & Record<string, unknown>>;
    };
    for (const b of plain.properties) {
      expect(b).not.toHaveProperty('matched');
      for (const u of b.units) expect(u).not.toHaveProperty('matched');
    }
  });
});

describe('the place box: GET /api/public/suggest', () => {
  const suggest = (q: string, limit?: number) =>
    fx.get(`/api/public/suggest?${new URLSearchParams({ q, ...(limit ? { limit: String(limit) } : {}) })}`) as Promise<{
      status: number;
      body: { suggestions: Array<{ type: string; slug: string; label: string; market: string; search: PlaceSearchArgs }>; error?: { code: string } };
    }>;

  it('completes a prefix, a typo, any case and two words to the place, and each answer searches a place with homes', async () => {
    const bookable = expectedResults(world, {}).map((r) => r.m);
    const city = bookable.find((m) => (m.market.cities.find((c) => c.slug === m.home.city_slug)?.name ?? '').length >= 6)!;
    const cityName = city.market.cities.find((c) => c.slug === city.home.city_slug)!.name;
    const prefix = await suggest(cityName.slice(0, 4).toLowerCase());
    expect(prefix.status).toBe(200);
    expect(prefix.body.suggestions.map((s) => `${s.type}:${s.slug}`)).toContain(`city:${city.home.city_slug}`);
    const typo = await suggest(cityName[0] + cityName[2] + cityName[1] + cityName.slice(3).toUpperCase());
    expect(typo.body.suggestions.map((s) => `${s.type}:${s.slug}`)).toContain(`city:${city.home.city_slug}`);
    const twoWords = bookable.find((m) => /^\p{L}+ \p{L}+/u.test(m.property.name))!;
    const [first, second] = twoWords.property.name.split(' ');
    const building = await suggest(`${first} ${second[0]}`);
    expect(building.body.suggestions.map((s) => `${s.type}:${s.slug}`)).toContain(`building:${twoWords.property.slug}`);
    for (const s of [...prefix.body.suggestions, ...building.body.suggestions]) {
      const res = await fx.get(`/api/public/search?${new URLSearchParams({ ...getParamsOf(s.search), per_page: '100' })}`);
      expect([s.slug, res.status, res.body.total_count > 0]).toEqual([s.slug, 200, true]);
      if (s.type === 'building') for (const h of res.body.homes as Home[]) expect(world.homes.find((m) => m.home.slug === h.slug)!.property.slug).toBe(s.slug);
    }
  });

  it("searches a city whose slug is also its market's as that city alone, GET (display_city) and MCP (scope.display_city) alike", async () => {
    const own = world.markets.find((m) => m.cities.some((c) => c.slug === m.slug) && expectedResults(world, { scope: { display_city: m.slug } }).length > 0)!;
    expect(own).toBeDefined();
    const city = own.cities.find((c) => c.slug === own.slug)!;
    const place = (await suggest(city.name, 20)).body.suggestions.find((s) => s.type === 'city' && s.slug === city.slug)!;
    expect(place.search).toEqual({ scope: { display_city: city.slug } });
    const cityAlone = expectedResults(world, { scope: { display_city: city.slug } })
      .map((r) => r.slug)
      .sort();
    const wholeMarket = expectedResults(world, { market: own.slug }).length;
    expect(cityAlone.length).toBeLessThan(wholeMarket);
    expect(cityAlone.length).toBeLessThanOrEqual(100);
    const get = await fx.get(`/api/public/search?${new URLSearchParams({ ...getParamsOf(place.search), per_page: '100' })}`);
    expect([get.status, get.body.total_count, get.body.display_city?.slug]).toEqual([200, cityAlone.length, city.slug]);
    expect(slugs(get.body.homes as Home[])).toEqual(cityAlone);
    const client = await fx.mcp();
    const tool = (await client.callTool({ name: 'search_apartments_tool', arguments: { ...place.search, per_page: 100 } })).structuredContent as Record<
      string,
      unknown
    >;
    expect(tool).toEqual(get.body);
    // The map's route takes the same parameter; with market beside it, the city alone is searched (the tool's precedence).
    const map = await fx.get(`/api/public/map-search?${new URLSearchParams({ display_city: city.slug })}`);
    expect([map.status, map.body.total_count]).toEqual([200, cityAlone.length]);
    const both = await fx.get(`/api/public/search?${new URLSearchParams({ display_city: city.slug, market: own.slug })}`);
    expect([both.status, both.body.total_count]).toEqual([200, cityAlone.length]);
    const unknown = await fx.get(`/api/public/search?${new URLSearchParams({ display_city: 'atlantis' })}`);
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, 'market_not_found']);
    const twice = await fx.get(`/api/public/search?display_city=${city.slug}&display_city=${city.slug}`);
    expect([twice.status, twice.body.error?.code, twice.body.error?.message]).toEqual([
      400,
      'invalid_parameters',
      '"display_city" is given more than once; it takes one value.',
    ]);
    // A GET search that names no place is told the GET parameters that name one, not the tool's scope.
    for (const route of ['search', 'map-search']) {
      const none = await fx.get(`/api/public/${route}?q=gym`);
      expect([none.status, none.body.error?.code]).toEqual([400, 'invalid_parameters']);
      expect(none.body.error.message).toMatch(/^A place is required: give market, display_city(, .*)? or polygon\.$/);
      expect(none.body.error.message).not.toMatch(/scope/);
    }
  });

  /** Every place of a searchable home and its completion entries, as the indexer writes them. */
  const worldPlaces = () =>
    placeDocuments(
      expectedResults(world, {}).map(({ m }) => ({
        market_slug: m.market.slug,
        city_slug: m.home.city_slug,
        city_name: m.market.cities.find((c) => c.slug === m.home.city_slug)!.name,
        neighborhood_slug: m.market.neighborhoods.find((n) => n.id === m.home.neighborhood_id)?.slug ?? null,
        property_slug: m.property.slug,
        property_name: m.property.name,
      })),
      world.markets,
    );

  it('reads a space typed after a word as the end of that word, typo budget or not: "park " completes "Park Row", not "Parkside"', async () => {
    const docs = worldPlaces();
    const inputs = docs.flatMap((d) => d.suggest.input);
    const firstWords = [...new Set(inputs.map((i) => i.split(' ')[0]))];
    // A word that ends a place's first word and begins a longer word of another: one under 5 letters (no typo
    // allowed), and one of 5 or more (one typo allowed: the suggester could spend it on the space) that no
    // other first word is within a typo of, so the places it ends are those that spell it.
    const ends = (w: string) => inputs.some((i) => i.startsWith(`${w} `)) && inputs.some((i) => new RegExp(`^${w}\\p{L}{2}`, 'u').test(i));
    const alone = (w: string) => !firstWords.some((o) => o !== w && withinFuzziness(o, { word: w, stem: w, fuzziness: 1, prefix: false }));
    const short = firstWords.find((w) => /^\p{L}{3,4}$/u.test(w) && ends(w));
    const long = firstWords.find((w) => /^\p{L}{5,8}$/u.test(w) && ends(w) && alone(w));
    for (const word of [short, long]) {
      expect(word).toBeDefined();
      const ended = docs.filter((d) => d.suggest.input.some((i) => i.startsWith(`${word} `)));
      const answer = (await suggest(`${word} `, 20)).body.suggestions;
      expect([word, answer.length]).toEqual([word, Math.min(20, ended.length)]);
      for (const s of answer) expect([s.label, ended.some((d) => d.type === s.type && d.slug === s.slug && d.market === s.market)]).toEqual([s.label, true]);
      // Without the space, the longer words complete too.
      const started = docs.filter((d) => d.suggest.input.some((i) => i.startsWith(word!)));
      expect((await suggest(word!, 20)).body.suggestions.length).toBeGreaterThanOrEqual(Math.min(20, started.length));
      expect(started.length).toBeGreaterThan(ended.length);
    }
  });

  it('answers a limit under the default with the first places of the default answer', async () => {
    for (const q of ['t', 'a', 'ba', 'pa', 'ce', 'so', 'we']) {
      const all = (await suggest(q, 8)).body.suggestions.map((s) => `${s.type}:${s.market}:${s.slug}`);
      for (const limit of [1, 2, 3, 5, 7]) {
        const some = (await suggest(q, limit)).body.suggestions.map((s) => `${s.type}:${s.market}:${s.slug}`);
        expect([q, limit, some]).toEqual([q, limit, all.slice(0, limit)]);
      }
    }
  });

  it('answers `limit` places whenever as many complete the text, a place completed from two of its words counted once', async () => {
    const docs = worldPlaces();
    // The two letters that complete the most places, some of them from two of their words.
    const prefixes = new Set(docs.flatMap((d) => d.suggest.input.map((i) => i.slice(0, 2))).filter((p) => /^\p{L}{2}$/u.test(p)));
    const [best] = [...prefixes]
      .map((p) => ({
        p,
        places: docs.filter((d) => d.suggest.input.some((i) => i.startsWith(p))).length,
        twice: docs.filter((d) => d.suggest.input.filter((i) => i.startsWith(p)).length >= 2).length,
      }))
      .filter((c) => c.twice > 0 && c.places >= 3)
      .sort((a, b) => b.places - a.places);
    expect(best).toBeDefined();
    // Every limit up to the places there are: a place's second entry ranks somewhere among them.
    for (let limit = 1; limit <= Math.min(20, best.places); limit++) {
      const ids = (await suggest(best.p, limit)).body.suggestions.map((s) => `${s.type}:${s.market}:${s.slug}`);
      expect([best.p, limit, ids.length]).toEqual([best.p, limit, limit]);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('keeps to its limit and refuses an empty, blank or too long q and a limit out of range', async () => {
    expect((await suggest('a', 3)).body.suggestions.length).toBeLessThanOrEqual(3);
    for (const [q, limit] of [
      ['', undefined],
      ['  ', undefined],
      ['x'.repeat(101), undefined],
      ['𝐛'.repeat(101), undefined],
      ['bo', 0],
      ['bo', 21],
      ['()', undefined],
    ] as const) {
      const res = await fx.get(`/api/public/suggest?${new URLSearchParams({ q, ...(limit !== undefined ? { limit: String(limit) } : {}) })}`);
      expect([q.slice(0, 10), limit, res.status, res.body.error?.code]).toEqual([q.slice(0, 10), limit, 400, 'invalid_parameters']);
    }
    expect((await fx.get('/api/public/suggest')).status).toBe(400);
    // 100 characters once trimmed, however many spaces before them; 100 letters of two UTF-16 units each.
    for (const q of [`${' '.repeat(101)}${'b'.repeat(100)}`, '𝐛'.repeat(100)]) expect([q.length, (await suggest(q)).status]).toEqual([q.length, 200]);
  });
});

// Last: it renames a home, which the scans above would not know.
describe('a word an incremental run adds', () => {
  it('is found by a typo of it in the first search after the run, by a copy that searched with the previous vocabulary before', async () => {
    const [first] = expectedResults(world, { market });
    const q = (words: string) => fx.get(`/api/public/search?${new URLSearchParams({ market, q: words, per_page: '100' })}`);
    // The copy reads the generation's vocabulary, which has no such word.
    const before = await q('zepyrine');
    expect([before.status, before.body.total_count]).toEqual([200, 0]);
    const home = await fx.mongo.collections.homes.findOne({ slug: first.slug });
    await fx.mongo.collections.homes.updateOne({ _id: home!._id }, { $set: { name: 'Zephyrine loft', updated_at: new Date() } });
    await recordChanges(fx.mongo.collections.inventoryChanges, 'test', { homes: [home!._id] });
    await incrementalRun(fx.es, fx.mongo.collections, { alias: fx.config.homesAlias, indexPrefix: fx.config.homesIndexPrefix });
    // One typo (a letter left out) of a word of 9 letters, which only the new vocabulary expands to the word.
    const after = await q('zepyrine');
    expect(after.status).toBe(200);
    expect((after.body.homes as Home[]).map((h) => h.slug)).toEqual([first.slug]);
    expect((after.body.homes as Home[])[0].matched).toEqual([{ field: 'title', text: '<mark>Zephyrine</mark> loft' }]);
  });
});
