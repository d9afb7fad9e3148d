/**
 * The one place an apartment or building search does I/O: it sends the bodies buildSearchBody and
 * building-body.ts made to the homes alias (STYLE: Searchkit's transporter), one at a time or, when
 * a step needs several views of the same set at once, together in one `_msearch` round trip. A
 * recorder sees each round trip's bodies, so the benchmark can replay exactly what a search sent,
 * straight to Elasticsearch.
 */
import { errors, type estypes } from '@elastic/elasticsearch';
import type { EsClient } from '../../kernel/store/es-client';
import type { HomeDocument } from '../../kernel/store/home-document';

export type SearchResponse = estypes.SearchResponse<HomeDocument>;

export interface SearchTransport {
  search(body: estypes.SearchRequest): Promise<SearchResponse>;
  /** Several searches in one round trip, answered in order; any one failing fails them all. */
  searchAll(bodies: readonly estypes.SearchRequest[]): Promise<SearchResponse[]>;
}

/** One round trip's bodies: a single search, or the searches of one `_msearch`. */
export type RoundTrip = readonly estypes.SearchRequest[];

/** The `_msearch` lines of some bodies: an empty header (the index is the request's) before each. */
export function msearchLines(bodies: RoundTrip): estypes.MsearchRequestItem[] {
  return bodies.flatMap((b) => [{}, b as estypes.MsearchMultisearchBody]);
}

/**
 * Parts of a search response no search reads: Elasticsearch leaves them out (`filter_path`), so it
 * does not serialize them and the service does not parse them. A page's hits keep `_id`, `_source`
 * and `sort` (search_after); a top_hits aggregation's hits keep only `_source` (no `_id`, `sort`
 * or `total`: count its bucket's doc_count). The buckets of an aggregation named TALLY_AGG are
 * dropped too: it exists to be counted by a pipeline beside it. A search that needs one of these
 * parts must take it off this list: the filter applies to every search.
 */
export const TALLY_AGG = 'tally';
const UNREAD_PATHS = [
  'took',
  'timed_out',
  '_shards',
  'hits.max_score',
  'hits.hits._index',
  'hits.hits._score',
  'hits.hits.fields',
  `aggregations.${TALLY_AGG}.buckets`,
  'aggregations.*.buckets.*.hits.total',
  'aggregations.*.buckets.*.hits.max_score',
  'aggregations.*.buckets.*.hits.hits._index',
  'aggregations.*.buckets.*.hits.hits._id',
  'aggregations.*.buckets.*.hits.hits._score',
  'aggregations.*.buckets.*.hits.hits.sort',
];
const SEARCH_TRIM = UNREAD_PATHS.map((p) => `-${p}`);
const MSEARCH_TRIM = ['-took', ...UNREAD_PATHS.map((p) => `-responses.${p}`)];

/** Sends one round trip as recorded: a search, or an `_msearch` of several (what the bench replays). */
export async function sendRoundTrip(es: EsClient, index: string, bodies: RoundTrip): Promise<SearchResponse[]> {
  if (bodies.length === 1) return [await es.search<HomeDocument>({ index, filter_path: SEARCH_TRIM, ...bodies[0] })];
  const res = await es.msearch<HomeDocument>({ index, searches: msearchLines(bodies), filter_path: MSEARCH_TRIM }, { meta: true });
  return res.body.responses.map((r) => {
    // A failed search fails the round trip as a single search would (the same error type, e.g. a missing index).
    if ('error' in r) throw new errors.ResponseError({ ...res, body: r, statusCode: r.status });
    return r as SearchResponse;
  });
}

export function esTransport(es: EsClient, index: string, record?: (trip: RoundTrip) => void): SearchTransport {
  return {
    async search(body) {
      record?.([body]);
      const [res] = await sendRoundTrip(es, index, [body]);
      return res;
    },
    searchAll(bodies) {
      if (bodies.length === 0) return Promise.resolve([]);
      record?.(bodies);
      return sendRoundTrip(es, index, bodies);
    },
  };
}

export function totalOf(res: SearchResponse): number {
  const t = res.hits.total;
  return typeof t === 'number' ? t : (t?.value ?? 0);
}
