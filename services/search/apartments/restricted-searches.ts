/**
 * Many apartment searches, each restricted to a few homes, answered together (docs/decisions.md,
 * "Watches: one search decides many watches"): what the watch matching asks of the homes an
 * incremental run changed.
 *
 * A search matches a home when Elasticsearch finds it with the search's own filter clauses
 * (../shared/search-body.ts, matchClauses: place, shapes, filters, rating, availability, q, the
 * indexed price limits) and, for a fixed stay with price limits, when its price band lies inside them
 * or its exact price passes them (../shared/exact-search.ts, the straddlers), and the engine prices the
 * stay. So each search's clauses are one named query, dozens of searches of one market share one request
 * over their homes, in that market's shard, and each hit's `matched_queries` says which searches it meets; the engine prices each
 * (search, home) pair with the search's own functions and the card is the one the search shows.
 * A window of move-in dates has steps of its own (window-search.ts): it is not asked here.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { IsoDate } from '../../kernel/inventory/records';
import { cardHolds } from '../../kernel/store/home-card';
import { matchClauses, RESULT_SOURCE, resultSource, type ResultDocument } from '../shared/search-body';
import { bandInsideClause } from '../shared/stay-clauses';
import { hitDocument } from '../shared/hit-fields';
import { resultPrice } from '../shared/result-price';
import { hasPriceLimits, withinLimits, type SearchParams } from '../shared/search-params';
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
 * Searches per request: each is a handful of clauses, and Elasticsearch bounds a query's clauses (by
 * its heap: 2,048 at the stack's 512 MB); a request refused is asked again in halves.
 */
export const SEARCHES_PER_REQUEST = 48;
/** Requests per `_msearch` round trip. */
const REQUESTS_PER_TRIP = 16;

const BAND = '#band';

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
    const groups: RestrictedSearch[][] = [];
    for (let i = 0; i < inMarket.length; i += SEARCHES_PER_REQUEST) groups.push(inMarket.slice(i, i + SEARCHES_PER_REQUEST));
    for (let i = 0; i < groups.length; i += REQUESTS_PER_TRIP) {
      const trip = groups.slice(i, i + REQUESTS_PER_TRIP);
      const answered = await t.searchAll(trip.map(groupBody)).then(
        (res) => trip.map((g, j) => [g, res[j]!] as const),
        // One request of the trip refused fails the trip: each is asked again on its own.
        () => null,
      );
      for (const [group, res] of answered ?? (await alone(t, trip))) {
        if (res === null) for (const s of group) answers.set(s.key, null);
        else decideGroup(deps.config, group, res.hits.hits, today, answers);
      }
    }
  });
  return answers;
}

/** Markets asked side by side (Elasticsearch answers one market's shard while Node decides another's hits). */
const MARKETS_AT_ONCE = 2;

/** Each group asked on its own, a refused one again in halves; a single search refused answers null. */
async function alone(t: SearchTransport, groups: readonly RestrictedSearch[][]): Promise<Array<readonly [RestrictedSearch[], SearchResponse | null]>> {
  const out: Array<readonly [RestrictedSearch[], SearchResponse | null]> = [];
  for (const group of groups) {
    const res = await t.search(groupBody(group)).catch(() => null);
    if (res !== null || group.length === 1) out.push([group, res]);
    else out.push(...(await alone(t, [group.slice(0, Math.ceil(group.length / 2)), group.slice(Math.ceil(group.length / 2))])));
  }
  return out;
}

/** The named query of each search of a group (and of its band, for a fixed stay with limits), over the group's homes. */
function groupBody(group: readonly RestrictedSearch[]): estypes.SearchRequest {
  const ids = [...new Set(group.flatMap((s) => s.homeIds))];
  const named: estypes.QueryDslQueryContainer[] = [];
  for (const { key, params } of group) {
    named.push({ bool: { filter: matchClauses(params), _name: key } });
    if (params.stay.kind === 'fixed' && hasPriceLimits(params.price))
      named.push({ bool: { filter: [bandInsideClause(params.stay, params.price)], _name: key + BAND } });
  }
  const texts = group.some((s) => (s.params.text?.length ?? 0) > 0);
  return {
    size: ids.length,
    track_total_hits: false,
    _source: [...RESULT_SOURCE, 'flex_stays'],
    docvalue_fields: ['card', ...(texts ? ['match_card'] : [])],
    // Only the homes some search of the group meets come back (should in a filter: at least one).
    query: { bool: { filter: [{ ids: { values: ids } }, { bool: { should: named } }] } },
  };
}

type Hit = SearchResponse['hits']['hits'][number];

/** The group's answers from its hits: the search's price rules, then the card it shows. */
function decideGroup(
  config: { publicBaseUrl: string; siteBaseUrl: string },
  group: readonly RestrictedSearch[],
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
  for (const { key, params, homeIds } of group) {
    const asked = new Set(homeIds);
    // The search reads the card where it holds the fields it needs, else the source (../shared/hit-fields.ts).
    const docs = cardHolds(resultSource(params)) ? fromCard : fromSource;
    const ctx = { publicBaseUrl: config.publicBaseUrl, siteBaseUrl: config.siteBaseUrl, today, stay: params.stay, near: nearPoint(params.filters) };
    const limited = params.stay.kind === 'fixed' && hasPriceLimits(params.price);
    const text = params.text && params.text.length > 0 ? params.text : null;
    const matches: RestrictedMatch[] = [];
    hits.forEach((_, i) => {
      if (!named[i]!.has(key)) return;
      const doc = docs(i);
      // A named query meets every home of the group's: only the search's own homes are its answer.
      if (!asked.has(doc.home_id)) return;
      const priced = resultPrice(doc, params.stay);
      if (priced === null) return;
      const price = priced.price.display_price_with_discount;
      if (limited && !named[i]!.has(key + BAND) && !withinLimits(price, params.price)) return;
      const card: Record<string, unknown> = { ...shapeResult(doc, priced, ctx) };
      if (text) {
        const written = (doc as { match_card?: unknown }).match_card;
        card.matched = typeof written === 'string' ? (matchedFromCards([[doc.home_id, written]], text).get(doc.home_id) ?? []) : [];
      }
      matches.push({ homeId: doc.home_id, slug: doc.slug, price, card });
    });
    answers.set(key, matches);
  }
}
