/**
 * The judged set of word searches (docs/performance.md, "Relevance"): queries generated from a world's
 * own texts, each with the homes that should come first, and the two measures the set is held to.
 *
 * - a building's name, as written and with one typo (two letters after the first swapped): the homes of
 *   the market's buildings of that name first (a generated inventory repeats names; the search cannot tell
 *   two buildings of one name apart);
 * - an amenity of the place's homes, as written and by a synonym of the service's list: the homes that
 *   say they have it, in their title or amenities or their building's (by the same matcher the search
 *   highlights with), before homes whose building's description only mentions it;
 * - a neighbourhood's name: its homes first (the name may appear in other homes' descriptions);
 * - two words, a neighbourhood's name and a building amenity: the neighbourhood's homes with it.
 *
 * Precision at 10 is the share of a query's first k results that are relevant, k the smaller of 10 and
 * the number of relevant homes (a query with three relevant homes is judged on its first three); "first
 * right" is the share of queries whose first result is relevant.
 */
import { homeTexts, type TextField } from '../../services/kernel/text/home-texts';
import { matchedFragment } from '../../services/kernel/text/matched';
import { queryPlan } from '../../services/kernel/text/query-plan';
import { mulberry32 } from '../../stack/demo/prng';
import type { ModelHome } from './search-model';

export interface JudgedQuery {
  kind: 'building' | 'building with a typo' | 'amenity' | 'amenity synonym' | 'neighbourhood' | 'two words';
  market: string;
  q: string;
  /** Slugs of the homes that should come first. */
  relevant: Set<string>;
}

/** Words of the synonym list a renter types for an amenity. */
const SYNONYMS: ReadonlyArray<[typed: string]> = [['w/d'], ['gym'], ['doorman'], ['ac']];

/** Whether the home's texts (those of `fields`, or all) hold q, by the matcher the search highlights with. */
const holds = (m: ModelHome, q: string, fields?: ReadonlySet<TextField>): boolean => {
  const plan = queryPlan(q);
  return homeTexts(m.home, m.property, m.market).some((t) => (fields === undefined || fields.has(t.field)) && matchedFragment(t.text, plan) !== null);
};

/** Where a home says what it has: its title and amenities, and its building's amenities (not a description that may mention anything nearby). */
const HAS: ReadonlySet<TextField> = new Set(['title', 'amenities', 'building_amenities']);

/** A building's name as a person types it: case and spacing aside, two buildings of one name are the same answer. */
const nameKey = (name: string): string => name.trim().toLowerCase().replace(/\s+/g, ' ');

function typo(word: string): string {
  return word.length < 5 ? word : word[0] + word[2] + word[1] + word.slice(3);
}

/** At least `size` judged queries over `homes` (the searchable homes of a world), drawn with `seed`. */
export function judgedQueries(homes: readonly ModelHome[], size: number, seed = 11): JudgedQuery[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const byBuilding = new Map<string, ModelHome[]>();
  for (const m of homes) byBuilding.set(m.property._id, [...(byBuilding.get(m.property._id) ?? []), m]);
  const buildings = [...byBuilding.values()].filter((ms) => ms[0].property.name.trim().length >= 5);
  const out: JudgedQuery[] = [];
  while (out.length < size) {
    const ms = pick(buildings);
    const m = ms[0];
    const market = m.home.market_slug;
    const inMarket = homes.filter((h) => h.home.market_slug === market);
    const slugs = (xs: readonly ModelHome[]) => new Set(xs.map((x) => x.home.slug));
    const name = m.property.name;
    // Every building of the market with this name: the search cannot tell two of one name apart.
    const named = slugs(inMarket.filter((h) => nameKey(h.property.name) === nameKey(name)));
    out.push({ kind: 'building', market, q: name, relevant: named });
    const first = name.split(/\s+/)[0];
    if (first.length >= 5) out.push({ kind: 'building with a typo', market, q: name.replace(first, typo(first)), relevant: named });
    const amenity = pick([...m.home.amenities, ...m.property.amenities]);
    out.push({ kind: 'amenity', market, q: amenity, relevant: slugs(inMarket.filter((h) => holds(h, amenity, HAS))) });
    const [typed] = pick(SYNONYMS);
    const having = inMarket.filter((h) => holds(h, typed, HAS));
    if (having.length > 0) out.push({ kind: 'amenity synonym', market, q: typed, relevant: slugs(having) });
    const neighborhood = m.market.neighborhoods.find((n) => n.id === m.home.neighborhood_id);
    if (neighborhood) {
      const of = inMarket.filter((h) => h.home.neighborhood_id === neighborhood.id);
      out.push({ kind: 'neighbourhood', market, q: neighborhood.name, relevant: slugs(of) });
      const extra = pick(m.property.amenities.length > 0 ? m.property.amenities : m.home.amenities);
      const word = extra?.split(/\s+/).find((w) => /^\p{L}{4,}$/u.test(w));
      if (word) out.push({ kind: 'two words', market, q: `${neighborhood.name} ${word}`, relevant: slugs(of.filter((h) => holds(h, word))) });
    }
  }
  return out.filter((j) => j.relevant.size > 0);
}

export interface Judgement {
  precisionAt10: number;
  firstRight: number;
}

/** How well the answers' orders (slugs, best first) meet the judged set, over every query and by kind. */
export function judge(
  set: readonly JudgedQuery[],
  answers: ReadonlyArray<readonly string[]>,
): { all: Judgement; byKind: Map<string, Judgement & { queries: number }> } {
  const rows = set.map((j, i) => {
    const k = Math.min(10, j.relevant.size);
    const top = answers[i].slice(0, k);
    return { kind: j.kind, precision: top.filter((s) => j.relevant.has(s)).length / k, first: answers[i].length > 0 && j.relevant.has(answers[i][0]) ? 1 : 0 };
  });
  const of = (rs: typeof rows): Judgement => ({
    precisionAt10: rs.reduce((a, r) => a + r.precision, 0) / rs.length,
    firstRight: rs.reduce((a, r) => a + r.first, 0) / rs.length,
  });
  const byKind = new Map<string, Judgement & { queries: number }>();
  for (const kind of new Set(rows.map((r) => r.kind))) {
    const rs = rows.filter((r) => r.kind === kind);
    byKind.set(kind, { ...of(rs), queries: rs.length });
  }
  return { all: of(rows), byKind };
}
