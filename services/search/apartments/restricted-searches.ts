/**
 * Many apartment searches, each restricted to a few homes, answered together (docs/decisions.md,
 * "Watches: one search decides many watches"): what the watch matching asks of the homes an
 * incremental run changed.
 *
 * A search matches a home when Elasticsearch finds it with the search's own filter clauses
 * (../shared/search-body.ts, matchClauses: place, shapes, filters, rating, availability, q, the
 * indexed price limits) and, for a fixed stay with price limits, when its price band lies inside them
 * or its exact price passes them (../shared/exact-search.ts, the straddlers), and the engine prices the
 * stay. Here the clauses that do not depend on the stay (place, shapes, filters, rating, q) are asked
 * of Elasticsearch, one named query for every search that shares them, dozens to a request over the
 * homes of one market, in that market's shard: each hit's `matched_queries` says which it meets. The
 * stay's own clauses (availability, price limits, band) are decided on each hit's fields in Node
 * (../shared/stay-in-document.ts: the same answer over the same fields), then the engine prices each
 * (search, home) pair with the search's own functions, and the card is the one the search shows.
 * A Flex stay's clauses (nested tiers) stay whole in its own named query. A window of move-in dates
 * has steps of its own (window-search.ts): it is not asked here.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { IsoDate } from '../../kernel/inventory/records';
import { cardHolds } from '../../kernel/store/home-card';
import { matchClauses, resultSource, type ResultDocument } from '../shared/search-body';
import { availableIn, decidedInDocument, priceAdmits, STAY_SOURCE, type StayFields } from '../shared/stay-in-document';
import { hitDocument } from '../shared/hit-fields';
import { resultPrice } from '../shared/result-price';
import type { SearchParams } from '../shared/search-params';
import { nearPoint } from '../shared/filters';
import { matchedFromCards } from '../shared/matched-texts';
import { homesTransport, type HomesTransportDeps, type SearchResponse, type SearchTransport } from '../shared/search-transport';
import { shapeResult } from './result-shape';
import { eachAtMost } from '../../kernel/each-at-most';

/** One search (no window) restricted to some homes; `key` names its answer. */
export interface RestrictedSearch {
  key: string;
  params: SearchParams;
  homeIds: readonly string[];
}

/** A home a search matches: its all-in price for the stay and its card as the search shows it. */
export interface RestrictedMatch {
  homeId: string;
  slug: string;
  price: number;
  card: Record<string, unknown>;
}

/** Per key: the matches, or null for a search too large to share a request (ask it on its own). */
export type RestrictedAnswers = Map<string, RestrictedMatch[] | null>;

/**
 * Named queries per request: each is a handful of clauses, and Elasticsearch bounds a query's clauses
 * (by its heap: 2,048 at the stack's 512 MB); a request refused is asked again in halves.
 */
export const QUERIES_PER_REQUEST = 48;
/** Requests per `_msearch` round trip. */
const REQUESTS_PER_TRIP = 16;

/** One named query of a request: the clauses it asks, and the searches that read its answer. */
interface NamedQuery {
  name: string;
  clauses: estypes.QueryDslQueryContainer[];
  searches: RestrictedSearch[];
}

const UNDATED = { kind: 'undated' } as const;
const NO_LIMITS = { min: null, max: null };

/**
 * The named queries of one market's searches: a search whose stay is decided in Node asks only its
 * clauses apart from the stay (as an undated search without price limits: its place, shapes, filters,
 * rating and q), shared by every search that asks the same; a Flex search asks all of its own.
 */
function namedQueries(searches: readonly RestrictedSearch[]): NamedQuery[] {
  const byClauses = new Map<string, NamedQuery>();
  const named: NamedQuery[] = [];
  for (const s of searches) {
    if (!decidedInDocument(s.params.stay)) {
      named.push({ name: `q${named.length}`, clauses: matchClauses(s.params), searches: [s] });
      continue;
    }
    const clauses = matchClauses({ ...s.params, stay: UNDATED, price: NO_LIMITS });
    const key = JSON.stringify(clauses);
    let q = byClauses.get(key);
    if (!q) {
      q = { name: `q${named.length}`, clauses, searches: [] };
      byClauses.set(key, q);
      named.push(q);
    }
    q.searches.push(s);
  }
  return named;
}

export async function restrictedSearches(
  deps: HomesTransportDeps & { config: { publicBaseUrl: string; siteBaseUrl: string } },
  searches: readonly RestrictedSearch[],
  today: IsoDate,
): Promise<RestrictedAnswers> {
  const answers: RestrictedAnswers = new Map();
  // Each market's searches in its own shard (the routing the search uses): a request read by every shard costs each shard all of it.
  const byMarket = new Map<string | undefined, RestrictedSearch[]>();
  for (const s of searches) {
    const market = s.params.location?.market.slug;
    byMarket.set(market, [...(byMarket.get(market) ?? []), s]);
  }
  await eachAtMost(MARKETS_AT_ONCE, [...byMarket], async ([market, inMarket]) => {
    const t = homesTransport(deps, market === undefined ? {} : { market });
    const named = namedQueries(inMarket);
    const groups: NamedQuery[][] = [];
    for (let i = 0; i < named.length; i += QUERIES_PER_REQUEST) groups.push(named.slice(i, i + QUERIES_PER_REQUEST));
    for (let i = 0; i < groups.length; i += REQUESTS_PER_TRIP) {
      const trip = groups.slice(i, i + REQUESTS_PER_TRIP);
      const answered = await t.searchAll(trip.map(groupBody)).then(
        (res) => trip.map((g, j) => [g, res[j]!] as const),
        // One request of the trip refused fails the trip: each is asked again on its own.
        () => null,
      );
      for (const [group, res] of answered ?? (await alone(t, trip))) {
        if (res === null) for (const q of group) for (const s of q.searches) answers.set(s.key, null);
        else decideGroup(deps.config, group, res.hits.hits, today, answers);
      }
    }
  });
  return answers;
}

/** Markets asked side by side (Elasticsearch answers one market's shard while Node decides another's hits). */
const MARKETS_AT_ONCE = 2;

/** Each group asked on its own, a refused one again in halves; a single query refused answers null. */
async function alone(t: SearchTransport, groups: readonly NamedQuery[][]): Promise<Array<readonly [NamedQuery[], SearchResponse | null]>> {
  const out: Array<readonly [NamedQuery[], SearchResponse | null]> = [];
  for (const group of groups) {
    const res = await t.search(groupBody(group)).catch(() => null);
    if (res !== null || group.length === 1) out.push([group, res]);
    else out.push(...(await alone(t, [group.slice(0, Math.ceil(group.length / 2)), group.slice(Math.ceil(group.length / 2))])));
  }
  return out;
}

/** The group's named queries over its searches' homes, with the fields its decisions read. */
function groupBody(group: readonly NamedQuery[]): estypes.SearchRequest {
  const searches = group.flatMap((q) => q.searches);
  const ids = [...new Set(searches.flatMap((s) => s.homeIds))];
  const texts = searches.some((s) => (s.params.text?.length ?? 0) > 0);
  const source = new Set<string>();
  for (const { params } of searches) {
    if (decidedInDocument(params.stay)) for (const f of STAY_SOURCE) source.add(f);
    if (!cardHolds(resultSource(params))) for (const f of resultSource(params)) source.add(f);
  }
  return {
    size: ids.length,
    track_total_hits: false,
    _source: source.size > 0 ? [...source] : false,
    docvalue_fields: ['card', ...(texts ? ['match_card'] : [])],
    // Only the homes some query of the group meets come back (should in a filter: at least one).
    query: { bool: { filter: [{ ids: { values: ids } }, { bool: { should: group.map((q) => ({ bool: { filter: q.clauses, _name: q.name } })) } }] } },
  };
}

type Hit = SearchResponse['hits']['hits'][number];

/** The group's answers from its hits: the stay's clauses and the search's price rules, then the card it shows. */
function decideGroup(
  config: { publicBaseUrl: string; siteBaseUrl: string },
  group: readonly NamedQuery[],
  hits: readonly Hit[],
  today: IsoDate,
  answers: RestrictedAnswers,
): void {
  const texts = (h: Hit) => (h.fields?.match_card ? { match_card: h.fields.match_card as unknown } : {});
  // Each hit read once in the form a search asks for, and only when one does.
  const cards: Array<ResultDocument | undefined> = [];
  const sources: Array<ResultDocument | undefined> = [];
  const fromCard = (i: number) => (cards[i] ??= hitDocument<ResultDocument>({ fields: { card: hits[i]!.fields?.card as unknown, ...texts(hits[i]!) } }));
  const fromSource = (i: number) => (sources[i] ??= hitDocument<ResultDocument>({ _source: hits[i]!._source, fields: texts(hits[i]!) }));
  const named = hits.map((h) => new Set(Array.isArray(h.matched_queries) ? h.matched_queries : Object.keys(h.matched_queries ?? {})));
  const hitOf = new Map(hits.map((h, i) => [h._id!, i]));
  for (const { name, searches } of group) {
    for (const { key, params, homeIds } of searches) {
      // The search reads the card where it holds the fields it needs, else the source (../shared/hit-fields.ts).
      const docs = cardHolds(resultSource(params)) ? fromCard : fromSource;
      const ctx = { publicBaseUrl: config.publicBaseUrl, siteBaseUrl: config.siteBaseUrl, today, stay: params.stay, near: nearPoint(params.filters) };
      const text = params.text && params.text.length > 0 ? params.text : null;
      const stay = params.stay;
      const matches: RestrictedMatch[] = [];
      for (const homeId of homeIds) {
        const i = hitOf.get(homeId);
        // A named query meets every home of the group's: only the search's own homes are its answer.
        if (i === undefined || !named[i]!.has(name)) continue;
        const fields = hits[i]!._source as StayFields | undefined;
        if (decidedInDocument(stay) && !availableIn(fields ?? {}, stay)) continue;
        const doc = docs(i);
        const priced = resultPrice(doc, stay);
        if (priced === null) continue;
        const price = priced.price.display_price_with_discount;
        if (decidedInDocument(stay) && !priceAdmits({ ...fields, reference_price: doc.reference_price }, stay, params.price, price)) continue;
        const card: Record<string, unknown> = { ...shapeResult(doc, priced, ctx) };
        if (text) {
          const written = (doc as { match_card?: unknown }).match_card;
          card.matched = typeof written === 'string' ? (matchedFromCards([[doc.home_id, written]], text).get(doc.home_id) ?? []) : [];
        }
        matches.push({ homeId: doc.home_id, slug: doc.slug, price, card });
      }
      answers.set(key, matches);
    }
  }
}
