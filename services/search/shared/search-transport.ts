/**
 * The one way the request path searches Elasticsearch (STYLE: Searchkit's transporter): the
 * apartment, map and building searches, the availability overview, the market tools and the listed
 * places send their bodies to the homes alias through it, one at a time or, when a step needs several
 * views of the same set at once, together in one `_msearch` round trip. A recorder sees each round
 * trip's bodies, so the benchmark can replay exactly what a search sent, straight to Elasticsearch.
 */
import { errors, type estypes } from '@elastic/elasticsearch';
import type { Deps } from '../../deps';
import { onceMore, type EsClient } from '../../kernel/store/es-client';
import type { NodeWatch } from '../../kernel/store/node-watch';
import type { HomeDocument } from '../../kernel/store/home-document';
import type { RoutingKeysCache } from '../../kernel/store/home-routing';
import type { MarketExtents } from '../../kernel/store/market-extents';
import type { Rectangle } from '../../kernel/map-tiles';
import { areaRouting } from './area-routing';
import { noteEsTime } from '../../kernel/store/es-time';

export type SearchResponse = estypes.SearchResponse<HomeDocument>;

/** A search for its aggregations alone: no hits. */
export type AggregationRequest = estypes.SearchRequest & { size: 0 };

export interface AggregationAnswer {
  /** By name; what each holds is the caller's to read. */
  aggregations: Record<string, unknown>;
  /** The matching documents, when the request tracks them (track_total_hits), else null. */
  total: number | null;
}

export interface SearchTransport {
  search(body: estypes.SearchRequest): Promise<SearchResponse>;
  /** Several searches in one round trip, answered in order; any one failing fails them all. */
  searchAll(bodies: readonly estypes.SearchRequest[]): Promise<SearchResponse[]>;
  /** One search for aggregations (a market's facets and statistics, the listed places), sent as `search` sends it. */
  aggregate(body: AggregationRequest): Promise<AggregationAnswer>;
}

/** One round trip's bodies: a single search, or the searches of one `_msearch`. */
export type RoundTrip = readonly estypes.SearchRequest[];

/** The `_msearch` lines of some bodies: a header before each (the index is the request's), with the body's routing, partial answers refused. */
export function msearchLines(bodies: RoundTrip, preference?: string): estypes.MsearchRequestItem[] {
  return bodies.flatMap(({ routing, ...body }) => [
    {
      ...(routing === undefined ? {} : { routing }),
      ...(preference === undefined ? {} : { preference }),
      allow_partial_search_results: false,
    },
    body as estypes.MsearchMultisearchBody,
  ]);
}

/**
 * Parts of a search response no search reads: Elasticsearch leaves them out (`filter_path`), so it
 * does not serialize them and the service does not parse them. `took` and `_shards.total` stay: the
 * request's rate limit is settled on their product (../../kernel/store/es-time.ts). A page's hits keep `_id`, `_source`,
 * `fields` (the card, ./hit-fields.ts) and `sort` (search_after); a top_hits aggregation's hits keep only `_source` (no `_id`, `sort`
 * or `total`: count its bucket's doc_count). The buckets of an aggregation named TALLY_AGG are
 * dropped too: it exists to be counted by a pipeline beside it. A search that needs one of these
 * parts must take it off this list: the filter applies to every search. A search sent alone may
 * name its own `filter_path` instead, to keep less (the overview keeps only `hits.total` and the
 * sources); a search of an `_msearch` cannot.
 */
export const TALLY_AGG = 'tally';
const UNREAD_PATHS = [
  'timed_out',
  '_shards.successful',
  '_shards.skipped',
  '_shards.failed',
  'hits.max_score',
  'hits.hits._index',
  'hits.hits._routing',
  'hits.hits._score',
  `aggregations.${TALLY_AGG}.buckets`,
  'aggregations.*.buckets.*.hits.total',
  'aggregations.*.buckets.*.hits.max_score',
  'aggregations.*.buckets.*.hits.hits._index',
  'aggregations.*.buckets.*.hits.hits._routing',
  'aggregations.*.buckets.*.hits.hits._id',
  'aggregations.*.buckets.*.hits.hits._score',
  'aggregations.*.buckets.*.hits.hits.sort',
];
const SEARCH_TRIM = UNREAD_PATHS.map((p) => `-${p}`);
const MSEARCH_TRIM = ['-took', ...UNREAD_PATHS.map((p) => `-responses.${p}`)];

/**
 * Sends one round trip as recorded: a search, or an `_msearch` of several (what the bench replays).
 * On several nodes (`nodes`), each attempt carries the preference of the moment (the nodes that
 * answer, ../../kernel/store/node-watch.ts), and one that gets no answer (a node refused the
 * connection, or did not answer within its half of the deadline) is sent once more with the
 * preference as it is then: by that time the watch has seen the node that hangs.
 */
export async function sendRoundTrip(es: EsClient, index: string, bodies: RoundTrip, nodes?: NodeWatch, signal?: AbortSignal): Promise<SearchResponse[]> {
  signal?.throwIfAborted();
  // Without a watch (the bench, tests) the client's own timeout: the signal then gets no event from it (onceMore).
  const answers = !nodes
    ? await sendOnce(es, index, bodies, undefined, signal === undefined ? {} : { signal })
    : await onceMore(nodes, (attempt) => sendOnce(es, index, bodies, nodes.preference(), { maxRetries: 0, ...attempt }), signal);
  noteEsTime(answers);
  return answers;
}

async function sendOnce(
  es: EsClient,
  index: string,
  bodies: RoundTrip,
  preference?: string,
  options: { maxRetries?: number; requestTimeout?: number; signal?: AbortSignal } = {},
): Promise<SearchResponse[]> {
  const prefer = preference === undefined ? {} : { preference };
  // A search over every shard (the market list) fails when a shard does, rather than answering for the others.
  if (bodies.length === 1) {
    return [await es.search<HomeDocument>({ index, filter_path: SEARCH_TRIM, allow_partial_search_results: false, ...prefer, ...bodies[0] }, options)];
  }
  const res = await es.msearch<HomeDocument>({ index, searches: msearchLines(bodies, preference), filter_path: MSEARCH_TRIM }, { ...options, meta: true });
  return res.body.responses.map((r) => {
    // A failed search fails the round trip as a single search would (the same error type, e.g. a missing index).
    if ('error' in r) throw new errors.ResponseError({ ...res, body: r, statusCode: r.status });
    return r as SearchResponse;
  });
}

export interface TransportOptions {
  /** The market every search of this request stays in: its shard alone is searched (kernel/store/home-routing.ts). */
  market?: string;
  /** Where the market's routing key is read (the service's copy of the indexer's keys); required with `market` or `area`. */
  routingKeys?: Pick<RoutingKeysCache, 'keyOf'>;
  /** Without a market: the box every home the searches can match lies in (./search-area.ts); only the shards of the markets it meets are read. */
  area?: Rectangle | null;
  /** The markets' extents under the current index generation; required with `area`. */
  extents?: Pick<MarketExtents, 'current'>;
  /** Sees each round trip's bodies, routing included, as sent (the bench replays them). */
  record?: (trip: RoundTrip) => void;
  /** The Elasticsearch nodes that answer, when there are several (sendRoundTrip). */
  nodes?: NodeWatch;
  /** The request's signal: a round trip still out when it aborts is cancelled (Elasticsearch cancels the search when its connection closes). */
  signal?: AbortSignal;
}

export function esTransport(es: EsClient, index: string, options: TransportOptions = {}): SearchTransport {
  const { market, record, nodes, routingKeys, signal, area, extents } = options;
  if (market !== undefined && routingKeys === undefined) throw new Error('a transport that stays in a market needs the routing keys');
  if (market === undefined && area && (routingKeys === undefined || extents === undefined))
    throw new Error('a transport kept to an area needs the routing keys and the extents');
  let key: Promise<string | undefined> | undefined;
  const routingOf = (): Promise<string | undefined> => {
    if (routingKeys === undefined) return Promise.resolve(undefined);
    if (market !== undefined) return routingKeys.keyOf(market);
    return area && extents ? areaRouting(area, extents, routingKeys) : Promise.resolve(undefined);
  };
  const routed = async (body: estypes.SearchRequest): Promise<estypes.SearchRequest> => {
    key ??= routingOf();
    const routing = await key;
    return routing === undefined ? body : { ...body, routing };
  };
  const search = async (body: estypes.SearchRequest): Promise<SearchResponse> => {
    const trip = [await routed(body)];
    record?.(trip);
    const [res] = await sendRoundTrip(es, index, trip, nodes, signal);
    return res;
  };
  return {
    search,
    async searchAll(bodies) {
      if (bodies.length === 0) return [];
      const trip = await Promise.all(bodies.map(routed));
      record?.(trip);
      return sendRoundTrip(es, index, trip, nodes, signal);
    },
    async aggregate(body) {
      const res = await search(body);
      return { aggregations: (res.aggregations ?? {}) as Record<string, unknown>, total: res.hits?.total === undefined ? null : totalOf(res) };
    },
  };
}

export type HomesTransportDeps = Pick<Deps, 'es' | 'config' | 'esNodes' | 'routingKeys' | 'marketExtents'>;

/** The transport of one request to the service's homes alias, staying in `market`'s shard when one is named, else in the shards of the markets `area` meets. */
export function homesTransport(deps: HomesTransportDeps, options: Omit<TransportOptions, 'nodes' | 'routingKeys' | 'extents'> = {}): SearchTransport {
  return esTransport(deps.es, deps.config.homesAlias, { ...options, nodes: deps.esNodes, routingKeys: deps.routingKeys, extents: deps.marketExtents });
}

/** The matching documents a search answer counts: `hits.total` is a number or `{ value }` (0 when the search did not track them). */
export function totalOf(res: { hits?: { total?: number | estypes.SearchTotalHits } }): number {
  const t = res.hits?.total;
  return typeof t === 'number' ? t : (t?.value ?? 0);
}
