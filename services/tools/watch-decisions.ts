/**
 * What each candidate watch's search matches of the homes an incremental run changed, decided for a
 * whole batch of watches at once (docs/decisions.md, "Watches: one search decides many watches").
 *
 * A watch's search matches a home when Elasticsearch finds the home with the search's own filter
 * clauses (search-body.ts, matchClauses: place, shapes, filters, rating, availability, q, the
 * indexed price limits) and, for a fixed stay with price limits, when the home's price band lies
 * inside them or its exact price passes them (ExactSearch's straddlers), and the engine prices the
 * stay. So each watch's clauses are one named query, dozens of watches share one request over the
 * changed homes, and each hit's `matched_queries` says which watches it meets; the engine prices
 * each (watch, home) pair in Node with the search's own functions. A window of move-in dates has
 * steps of its own (window-search.ts): those watches run their restricted search one by one.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { Deps } from '../deps';
import type { IsoDate } from '../kernel/inventory/records';
import type { WatchRecord } from '../kernel/store/watch-records';
import { cardHolds } from '../kernel/store/home-card';
import { ApiError } from '../kernel/errors';
import { matchClauses, RESULT_SOURCE, resultSource, type ResultDocument } from '../search/shared/search-body';
import { bandInsideClause } from '../search/shared/stay-clauses';
import { hitDocument } from '../search/shared/hit-fields';
import { resultPrice } from '../search/shared/result-price';
import { hasPriceLimits, withinLimits, type SearchParams } from '../search/shared/search-params';
import { nearPoint } from '../search/shared/filters';
import { matchedFromCards } from '../search/shared/matched-texts';
import { startsInPast } from '../search/shared/exact-search';
import { shapeResult } from '../search/apartments/result-shape';
import type { NowMatching } from '../watches/diff';
import type { WatchQuestion } from '../watches/matching';
import { watchedMatches, watchedParams, type WatchedArgs } from './watched-search';

type WatchAnswers = Map<string, NowMatching[] | ApiError>;

/**
 * Watches per request: each is a handful of clauses, and Elasticsearch bounds a query's clauses
 * (by its heap: 2,048 at the stack's 512 MB); a request refused for its size is split in two.
 */
export const WATCHES_PER_REQUEST = 48;
/** Requests per `_msearch` round trip. */
const REQUESTS_PER_TRIP = 16;

const BAND = '#band';

interface Asked {
  watch: WatchRecord;
  homeIds: readonly string[];
  params: SearchParams;
}

export async function decideWatches(deps: Deps, questions: readonly WatchQuestion[], today: IsoDate): Promise<WatchAnswers> {
  const answers: WatchAnswers = new Map();
  const batched: Asked[] = [];
  const alone: Asked[] = [];
  for (const q of questions) {
    let params: SearchParams;
    try {
      params = await watchedParams(deps, q.watch.search as WatchedArgs, today);
      // q expanded in a vocabulary not yet confirmed: the settled words are the search's (read-q.ts).
      if (params.textSettled !== undefined) {
        const settled = await params.textSettled;
        params = { ...params, ...(settled === null ? {} : { text: settled }), textSettled: undefined };
      }
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      answers.set(q.watch._id, err);
      continue;
    }
    if (q.homeIds.length === 0 || startsInPast(params, today)) answers.set(q.watch._id, []);
    else (params.window ? alone : batched).push({ ...q, params });
  }
  for (const asked of alone) {
    try {
      const { matches } = await watchedMatches(deps, asked.watch.search as WatchedArgs, today, { homeIds: asked.homeIds, limit: asked.homeIds.length });
      answers.set(asked.watch._id, matches);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      answers.set(asked.watch._id, err);
    }
  }
  // Watches of one market side by side: a request's homes are then few.
  batched.sort((a, b) => marketOf(a).localeCompare(marketOf(b)));
  const groups: Asked[][] = [];
  for (let i = 0; i < batched.length; i += WATCHES_PER_REQUEST) groups.push(batched.slice(i, i + WATCHES_PER_REQUEST));
  for (let i = 0; i < groups.length; i += REQUESTS_PER_TRIP) {
    for (const [group, hits] of await sendGroups(deps, groups.slice(i, i + REQUESTS_PER_TRIP))) decideGroup(deps, group, hits, today, answers);
  }
  return answers;
}

const marketOf = (a: Asked): string => a.params.location?.market.slug ?? '';

type Hit = estypes.SearchHit<Record<string, unknown>>;

/** The named query of each watch of a group (and of its band, for a fixed stay with limits), over the group's homes. */
function groupBody(group: readonly Asked[]): estypes.SearchRequest {
  const ids = [...new Set(group.flatMap((a) => a.homeIds))];
  const named: estypes.QueryDslQueryContainer[] = [];
  for (const { watch, params, homeIds } of group) {
    named.push({ bool: { filter: [{ terms: { home_id: [...homeIds] } }, ...matchClauses(params)], _name: watch._id } });
    if (params.stay.kind === 'fixed' && hasPriceLimits(params.price)) named.push({ bool: { filter: [bandInsideClause(params.stay, params.price)], _name: watch._id + BAND } });
  }
  const texts = group.some((a) => (a.params.text?.length ?? 0) > 0);
  return {
    size: ids.length,
    track_total_hits: false,
    _source: [...RESULT_SOURCE, 'flex_stays'],
    docvalue_fields: ['card', ...(texts ? ['match_card'] : [])],
    // Only the homes some watch of the group meets come back (should in a filter: at least one).
    query: { bool: { filter: [{ ids: { values: ids } }, { bool: { should: named } }] } },
  };
}

/** Each group's hits; a group Elasticsearch refuses for its clause count is asked again in halves. */
async function sendGroups(deps: Deps, groups: readonly Asked[][]): Promise<Array<[Asked[], Hit[]]>> {
  if (groups.length === 0) return [];
  const res = await deps.es.msearch<Record<string, unknown>>({
    index: deps.config.homesAlias,
    searches: groups.flatMap((g) => [{}, groupBody(g) as estypes.MsearchMultisearchBody]),
  });
  const out: Array<[Asked[], Hit[]]> = [];
  for (const [i, r] of res.responses.entries()) {
    const group = groups[i]!;
    if (!('error' in r)) {
      out.push([group, r.hits.hits]);
      continue;
    }
    if (group.length > 1 && /too_many|clause/i.test(JSON.stringify(r.error))) {
      const half = Math.ceil(group.length / 2);
      out.push(...(await sendGroups(deps, [group.slice(0, half), group.slice(half)])));
      continue;
    }
    throw new Error(`watch decisions: ${JSON.stringify(r.error)}`);
  }
  return out;
}

/** The group's answers from its hits: the search's price rules, then the card it shows. */
function decideGroup(deps: Deps, group: readonly Asked[], hits: readonly Hit[], today: IsoDate, answers: WatchAnswers): void {
  const fromCard = hits.map((h) => hitDocument<ResultDocument>({ fields: { card: h.fields?.card, ...(h.fields?.match_card ? { match_card: h.fields.match_card } : {}) } }));
  const fromSource = hits.map((h) => hitDocument<ResultDocument>({ _source: h._source, ...(h.fields?.match_card ? { fields: { match_card: h.fields.match_card } } : {}) }));
  const named = hits.map((h) => new Set(h.matched_queries as string[] | undefined));
  for (const { watch, params } of group) {
    // The search reads the card where it holds the fields it needs, else the source (search-body.ts, hitFields).
    const docs = cardHolds(resultSource(params)) ? fromCard : fromSource;
    const ctx = { publicBaseUrl: deps.config.publicBaseUrl, siteBaseUrl: deps.config.siteBaseUrl, today, stay: params.stay, near: nearPoint(params.filters) };
    const limited = params.stay.kind === 'fixed' && hasPriceLimits(params.price);
    const matching: NowMatching[] = [];
    hits.forEach((_, i) => {
      if (!named[i]!.has(watch._id)) return;
      const doc = docs[i]!;
      const priced = resultPrice(doc, params.stay);
      if (priced === null) return;
      const price = priced.price.display_price_with_discount;
      if (limited && !named[i]!.has(watch._id + BAND) && !withinLimits(price, params.price)) return;
      const text = params.text && params.text.length > 0 ? params.text : null;
      const card: Record<string, unknown> = { ...shapeResult(doc, priced, ctx) };
      if (text) {
        const texts = (doc as { match_card?: unknown }).match_card;
        card.matched = typeof texts === 'string' ? (matchedFromCards([[doc.home_id, texts]], text).get(doc.home_id) ?? []) : [];
      }
      matching.push({ homeId: doc.home_id, slug: doc.slug, price, card });
    });
    answers.set(watch._id, matching);
  }
}
