/**
 * The reverse search of the watches (docs/decisions.md, "Watches: a reverse search"): each live watch
 * is a small document of its flat criteria (its market, bedroom bounds, the boolean filters it
 * requires, its last day) in an index beside the homes alias, and a changed home's attributes are the
 * query that finds the watches it may concern. The answer is a superset (no price, dates or shape
 * here): each candidate is then decided exactly by the watch's own search. MongoDB stays the truth:
 * each watch keeps its criteria, and the index is rebuilt from them (rebuildWatchIndex) when missing.
 */
import type { HomeFacts } from '../kernel/store/home-facts';
import type { Client, estypes } from '@elastic/elasticsearch';
import watchesMapping from '../../mappings/watches.json';
import { FLAG_FIELDS } from '../kernel/store/flag-fields';
import type { IsoDate } from '../kernel/inventory/records';
import { hasPriceLimits, type SearchParams } from '../search/shared/search-params';
import { cellKeyOf, nightCut } from '../kernel/store/price-cells';
import type { Collections } from '../kernel/store/collections';
import type { WatchCriteriaRecord, WatchRecord } from '../kernel/store/watch-records';
import { isLive } from './owners';
import { unversionedAlias } from '../kernel/store/mapping-version';

/** One watches' index for every version of the homes index: the copies of two builds save and match the same watches. */
export const watchIndexOf = (homesAlias: string): string => `${unversionedAlias(homesAlias)}-watches`;

export type WatchCriteria = WatchCriteriaRecord;

export function criteriaOf(
  watchId: string,
  params: Pick<SearchParams, 'location' | 'filters' | 'stay' | 'price' | 'window'>,
  expiresOn: IsoDate,
): WatchCriteria {
  const f = params.filters as Record<string, unknown>;
  const flags = Object.entries(FLAG_FIELDS).flatMap(([arg, field]) => (f[arg] === true ? [field] : []));
  return {
    watch_id: watchId,
    ...(params.location ? { market_slug: params.location.market.slug } : {}),
    ...(typeof f.min_bedrooms === 'number' ? { min_bedrooms: f.min_bedrooms } : {}),
    ...(typeof f.max_bedrooms === 'number' ? { max_bedrooms: f.max_bedrooms } : {}),
    flags,
    ...priceCriteria(params),
    expires_on: expiresOn,
  };
}

/** The indexed price a search's limits compare (../search/shared/indexed-price.ts). */
const REFERENCE = 'reference';

/**
 * The price limits a home's indexed prices can rule out: an undated search or a move-in date alone
 * compares the reference price, a fixed stay its cell's band (`price_cell`, the cell's key). A Flex
 * stay or a window of move-in dates reads prices this index does not bound: no price criteria.
 */
function priceCriteria(params: Pick<SearchParams, 'stay' | 'price' | 'window'>): Pick<WatchCriteria, 'price_cell' | 'price_min' | 'price_max'> {
  const { stay, price } = params;
  if (params.window || !hasPriceLimits(price) || stay.kind === 'flex') return {};
  const cell = stay.kind === 'fixed' ? cellKeyOf(stay.start_date.slice(0, 7), nightCut(stay.nights)) : REFERENCE;
  return { price_cell: cell, ...(price.min !== null ? { price_min: price.min } : {}), ...(price.max !== null ? { price_max: price.max } : {}) };
}

interface WatchIndexDeps {
  es: Client;
  config: { homesAlias: string };
}

/** A new concrete index of the watches' criteria, behind `alias` when given. */
async function createWatchIndex(es: Client, index: string, alias?: string): Promise<void> {
  const body = watchesMapping as Omit<estypes.IndicesCreateRequest, 'index'>;
  await es.indices.create({ index, ...body, ...(alias ? { aliases: { [alias]: {} } } : {}) }).catch((err: unknown) => {
    if (!String((err as Error).message).includes('resource_already_exists')) throw err;
  });
}

/** The watches' indexes whose mapping this process has brought up to its own (fields are only ever added). */
const mapped = new Set<string>();

/**
 * The watches' index (an alias over one concrete index, so a rebuild swaps it whole), created when
 * missing; an index made by an older build gets the fields this one writes (an addition to a mapping
 * applies in place).
 */
async function ensureWatchIndex(es: Client, alias: string): Promise<void> {
  if (await es.indices.exists({ index: alias })) {
    if (!mapped.has(alias)) await es.indices.putMapping({ index: alias, properties: (watchesMapping.mappings as estypes.MappingTypeMapping).properties });
  } else {
    // One name for every copy that finds it missing at once: the second creation is a no-op.
    await createWatchIndex(es, `${alias}-first`, alias);
  }
  mapped.add(alias);
}

/** Whether the watches' index exists (a worker rebuilds it from MongoDB when it does not). */
export const watchIndexExists = ({ es, config }: WatchIndexDeps): Promise<boolean> => es.indices.exists({ index: watchIndexOf(config.homesAlias) });

/**
 * Rebuilds the watches' index from MongoDB, the truth: every live watch's criteria (as stored at its
 * creation, or from `criteriaFor` for a record without them) bulk-loaded into a new concrete index,
 * then the alias moved to it in one step (an index left under the alias's own name is replaced). The
 * watches saved while it ran are indexed again after the move. Returns how many watches it indexed.
 */
export async function rebuildWatchIndex(
  deps: WatchIndexDeps & { mongo: Collections },
  today: IsoDate,
  criteriaFor: (watch: WatchRecord) => Promise<WatchCriteria | null>,
): Promise<number> {
  const { es, mongo, config } = deps;
  const alias = watchIndexOf(config.homesAlias);
  const started = new Date();
  const index = `${alias}-${started.getTime()}`;
  await createWatchIndex(es, index);
  await es.indices.putSettings({ index, settings: { refresh_interval: '-1' } });
  let count = 0;
  const load = async (watches: WatchRecord[], target: string): Promise<void> => {
    const docs: WatchCriteria[] = [];
    for (const w of watches) {
      if (!isLive(w, today)) continue;
      const criteria = w.criteria ?? (await criteriaFor(w));
      if (criteria) docs.push(watchDocument(criteria));
    }
    for (let i = 0; i < docs.length; i += REBUILD_BULK) {
      const operations = docs.slice(i, i + REBUILD_BULK).flatMap((d) => [{ index: { _index: target, _id: d.watch_id } }, d]);
      const res = await es.bulk({ operations });
      if (res.errors) throw new Error(`watch index rebuild: ${JSON.stringify(res.items.find((it) => it.index?.error)?.index?.error)}`);
    }
    count += docs.length;
  };
  // Live watches are few beside their changes: the collection is read whole, in batches.
  const cursor = mongo.watches.find({ ended_at: null }).batchSize(REBUILD_BULK);
  let batch: WatchRecord[] = [];
  for await (const w of cursor) {
    batch.push(w);
    if (batch.length === REBUILD_BULK) {
      await load(batch, index);
      batch = [];
    }
  }
  await load(batch, index);
  await es.indices.putSettings({ index, settings: { refresh_interval: '1s' } });
  await es.indices.refresh({ index });
  const old = (await es.indices.exists({ index: alias })) ? Object.keys(await es.indices.get({ index: alias })) : [];
  if (old.includes(alias)) {
    // A concrete index under the alias's name (from before the alias): replaced, for a moment absent.
    await es.indices.delete({ index: alias });
    await es.indices.updateAliases({ actions: [{ add: { index, alias } }] });
  } else {
    await es.indices.updateAliases({ actions: [...old.map((o) => ({ remove: { index: o, alias } })), { add: { index, alias } }] });
    if (old.length > 0) await es.indices.delete({ index: old });
  }
  // Watches saved during the rebuild were indexed into the old index: again into the new one.
  await load(await mongo.watches.find({ created_at: { $gte: started } }).toArray(), alias);
  await es.indices.refresh({ index: alias });
  return count;
}

const REBUILD_BULK = 1_000;

/** Adds (or replaces) a watch's criteria; searchable once this returns. */
export async function indexWatch({ es, config }: WatchIndexDeps, criteria: WatchCriteria): Promise<void> {
  const index = watchIndexOf(config.homesAlias);
  await ensureWatchIndex(es, index);
  await es.index({ index, id: criteria.watch_id, document: watchDocument(criteria), refresh: 'wait_for' });
}

/** Removes an ended watch's criteria (nothing when it has none). */
export async function unindexWatch({ es, config }: WatchIndexDeps, watchId: string): Promise<void> {
  await es.delete({ index: watchIndexOf(config.homesAlias), id: watchId, refresh: 'wait_for' }, { ignore: [404] });
}

/** No price criteria: the watch's `price_cell` in the index. */
const NO_PRICE_CELL = 'none';
/** A missing upper limit, as indexed (a missing lower limit is 0). */
const NO_MAX_PRICE = Number.MAX_SAFE_INTEGER;
/** No market (a drawn shape or a circle): the watch's `market_slug` in the index (no market's slug has a `*`). */
const ANY_MARKET = '*';
/** No upper bedroom bound, as indexed (the largest `integer`; a missing lower bound is 0). */
const NO_MAX_BEDROOMS = 2_147_483_647;

/**
 * The document of a watch's criteria: every field the reverse search compares present (`*` for no
 * market, bounds of 0 and the largest integer, `none` and limits of 0 and no maximum for no price
 * criteria), so a home's query compares values and never asks whether a field exists (a pass over
 * every document of the index, per clause and home).
 */
export function watchDocument(c: WatchCriteria): WatchCriteria {
  return {
    ...c,
    market_slug: c.market_slug ?? ANY_MARKET,
    min_bedrooms: c.min_bedrooms ?? 0,
    max_bedrooms: c.max_bedrooms ?? NO_MAX_BEDROOMS,
    price_cell: c.price_cell ?? NO_PRICE_CELL,
    price_min: c.price_min ?? 0,
    price_max: c.price_max ?? NO_MAX_PRICE,
  };
}

/** Watches whose limits admit a price range [low, high]: a maximum at least `low`, a minimum at most `high`. */
const limitsMeet = (low: number, high: number): estypes.QueryDslQueryContainer[] => [
  { range: { price_max: { gte: low } } },
  { range: { price_min: { lte: high } } },
];

/**
 * The watches whose price limits the home can meet: no limits the index bounds; limits on the
 * reference price that it passes; limits a cell's band meets (ruled out only by the band, as the
 * search's candidates are: ../search/shared/stay-clauses.ts, bandCandidateClause); or a cell the
 * home has no band for (the search prices it exactly). `cells`: the cells the index's watches name
 * (a home's other cells concern no watch), so each clause is a term or a range, none a negation.
 */
function priceQuery(home: HomeFacts, cells: ReadonlySet<string>): estypes.QueryDslQueryContainer {
  const should: estypes.QueryDslQueryContainer[] = [{ term: { price_cell: NO_PRICE_CELL } }];
  if (home.reference !== undefined) should.push({ bool: { filter: [{ term: { price_cell: REFERENCE } }, ...limitsMeet(home.reference, home.reference)] } });
  // Cells with the same band share a clause (a home's cells often repeat a band: its seasons and lengths).
  const byBand = new Map<string, { lo: number; hi: number | undefined; cells: string[] }>();
  for (const cell of Object.keys(home.bands)) {
    if (!cells.has(cell)) continue;
    const { lo, hi } = home.bands[cell]!;
    const key = `${lo}/${hi}`;
    const same = byBand.get(key) ?? byBand.set(key, { lo, hi, cells: [] }).get(key)!;
    same.cells.push(cell);
  }
  for (const { lo, hi, cells: same } of byBand.values()) {
    // A band without its upper bound meets no lower limit (a range on a missing field matches nothing).
    should.push({ bool: { filter: [{ terms: { price_cell: same } }, ...limitsMeet(lo, hi ?? 0)] } });
  }
  const unbanded = [...cells].filter((cell) => cell !== NO_PRICE_CELL && cell !== REFERENCE && home.bands[cell] === undefined);
  if (unbanded.length > 0) should.push({ terms: { price_cell: unbanded } });
  return { bool: { should, minimum_should_match: 1 } };
}

/** The query of one home: the watches whose criteria it meets, live on `today`, among those whose price cells are `cells`. */
function homeQuery(home: HomeFacts, today: IsoDate, cells: ReadonlySet<string>): estypes.QueryDslQueryContainer {
  const lacking = Object.values(FLAG_FIELDS).filter((field) => !home.flags.includes(field));
  return {
    bool: {
      filter: [
        // The market's term leads: the other clauses are tested on its watches only.
        { terms: { market_slug: [home.market_slug, ANY_MARKET] } },
        { range: { min_bedrooms: { lte: home.bedrooms } } },
        { range: { max_bedrooms: { gte: home.bedrooms } } },
        { range: { expires_on: { gte: today } } },
        priceQuery(home, cells),
      ],
      must_not: lacking.length ? [{ terms: { flags: lacking } }] : [],
    },
  };
}

/**
 * The live watches no home's query can find: a document of an older build (a field the queries
 * compare missing) or a price cell named after `cells` was read. Candidates of every home of the
 * batch (the superset is decided exactly); none, as a rule.
 */
function strayQuery(today: IsoDate, cells: ReadonlySet<string>): estypes.QueryDslQueryContainer {
  const missing = (field: string): estypes.QueryDslQueryContainer => ({ bool: { must_not: { exists: { field } } } });
  return {
    bool: {
      filter: [
        { range: { expires_on: { gte: today } } },
        {
          bool: {
            should: [missing('market_slug'), missing('min_bedrooms'), missing('max_bedrooms'), { bool: { must_not: { terms: { price_cell: [...cells] } } } }],
            minimum_should_match: 1,
          },
        },
      ],
    },
  };
}

/** How many homes a request asks, how many watches a home's bucket answers, and how many a page holds when it meets more. */
export interface AnswerSizes {
  homesPerRequest: number;
  perAnswer: number;
  perPage: number;
}

/**
 * Each home's query is a bucket of a `filters` aggregation, a hundred to a request: one request's fixed
 * cost (its parsing, its task, its reduce) shared by a hundred homes, where a search per home paid it
 * a thousand times (docs/decisions.md, "Watches: a reverse search"). A hundred homes of 600 watches
 * each stay within Elasticsearch's default `search.max_buckets` (65,536); a home that meets more has
 * them paged, 60,000 to a page.
 */
const ANSWER_SIZES: AnswerSizes = { homesPerRequest: 100, perAnswer: 600, perPage: 60_000 };

/** Distinct price cells the watches name, read in one aggregation (a stay's cell is its month and length: a few hundred at most). */
const MAX_CELLS = 10_000;

/** The price cells the index's watches name (with `none` and `reference`, which every query names). */
async function cellsInUse(es: Client, index: string): Promise<Set<string>> {
  const res = await es.search<unknown, { cells: estypes.AggregationsStringTermsAggregate }>({
    index,
    size: 0,
    track_total_hits: false,
    aggs: { cells: { terms: { field: 'price_cell', size: MAX_CELLS } } },
  });
  const buckets = res.aggregations?.cells.buckets;
  return new Set([NO_PRICE_CELL, REFERENCE, ...(Array.isArray(buckets) ? buckets.map((b) => String(b.key)) : [])]);
}

type Aggregate = estypes.AggregationsStringTermsAggregate;
type HomesAggregate = estypes.AggregationsFiltersAggregate & { buckets: Array<estypes.AggregationsFiltersBucket & { watches?: Aggregate }> };

/**
 * For each watch some of the homes may concern: the ids of those homes. The cells the watches name
 * are read first, then one _msearch: the homes' queries a hundred to a request as the buckets of a
 * `filters` aggregation, each a few terms and ranges led by the market's term, and the query of the
 * watches no home's query can find (read after the cells, so a watch saved in between is found there).
 * Each query answers the watches' ids as the buckets of a terms aggregation over `watch_id` (a doc
 * value), not as hits: a hit's `_id` is read from its stored fields (docs/decisions.md, "Watches: a
 * reverse search"). The index has one shard: the buckets are exact. A home that meets more watches
 * than its bucket answers (`sizes.perAnswer`) has them paged.
 */
export async function candidateWatches(
  { es, config }: WatchIndexDeps,
  homes: readonly HomeFacts[],
  today: IsoDate,
  sizes: AnswerSizes = ANSWER_SIZES,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (homes.length === 0) return out;
  const index = watchIndexOf(config.homesAlias);
  if (!(await es.indices.exists({ index }))) return out;
  const cells = await cellsInUse(es, index);
  const watches = { terms: { field: 'watch_id', size: sizes.perAnswer } };
  // A request's homes of one market where they can be: their queries share its leading term (in
  // Elasticsearch's query cache), which costs the request a fifth of mixed markets' time.
  const order = homes
    .map((_, i) => i)
    .sort((a, b) => (homes[a]!.market_slug < homes[b]!.market_slug ? -1 : homes[a]!.market_slug > homes[b]!.market_slug ? 1 : a - b));
  const groups: number[][] = [];
  for (let i = 0; i < order.length; i += sizes.homesPerRequest) groups.push(order.slice(i, i + sizes.homesPerRequest));
  const queries = homes.map((home) => homeQuery(home, today, cells));
  const stray = strayQuery(today, cells);
  const bodies = [
    ...groups.map((group) =>
      homesBody(
        group.map((i) => queries[i]!),
        watches,
      ),
    ),
    { size: 0, track_total_hits: false, query: stray, aggs: { watches } },
  ];
  const res = await es.msearch({ searches: bodies.flatMap((body) => [{ index }, body]) });
  // Each query's answer, by the home's place in `homes`; the stray query's last.
  const answers: Array<{ ids: string[]; more: boolean }> = [];
  for (const [r, response] of res.responses.entries()) {
    if ('error' in response) throw new Error(`watch candidates: ${JSON.stringify(response.error)}`);
    const group = groups[r];
    if (group) for (const [k, answer] of homeAnswers(response.aggregations?.homes as HomesAggregate | undefined).entries()) answers[group[k]!] = answer;
    else answers[homes.length] = termsAnswer(response.aggregations?.watches as Aggregate | undefined);
  }
  queries.push(stray);
  const everyHome = homes.map((h) => h.homeId);
  const add = (i: number, id: string): void => {
    // The last answer's watches are every home's candidates (the homes' answers came before it).
    if (i === homes.length) out.set(id, [...everyHome]);
    else if (out.has(id)) out.get(id)!.push(homes[i]!.homeId);
    else out.set(id, [homes[i]!.homeId]);
  };
  for (const [i, { ids, more }] of answers.entries()) {
    // More than one answer holds: every watch of this query, a page at a time.
    if (more) for await (const id of allWatches(es, index, queries[i]!, sizes.perPage)) add(i, id);
    else for (const id of ids) add(i, id);
  }
  return out;
}

/** A request asking each of `group` as a bucket of a `filters` aggregation, its watches below it. */
function homesBody(group: readonly estypes.QueryDslQueryContainer[], watches: { terms: estypes.AggregationsTermsAggregation }): estypes.SearchRequest {
  return { size: 0, track_total_hits: false, aggs: { homes: { filters: { filters: [...group] }, aggs: { watches } } } };
}

function termsAnswer(agg: Aggregate | undefined): { ids: string[]; more: boolean } {
  return { ids: Array.isArray(agg?.buckets) ? agg.buckets.map((b) => String(b.key)) : [], more: (agg?.sum_other_doc_count ?? 0) > 0 };
}

function homeAnswers(agg: HomesAggregate | undefined): Array<{ ids: string[]; more: boolean }> {
  return (agg?.buckets ?? []).map((bucket) => termsAnswer(bucket.watches));
}

/** Every watch a query finds, paged by a composite aggregation over `watch_id` (in the ids' order). */
async function* allWatches(es: Client, index: string, query: estypes.QueryDslQueryContainer, page: number): AsyncGenerator<string> {
  let after: Record<string, estypes.FieldValue> | undefined;
  do {
    const res = await es.search<unknown, { watches: estypes.AggregationsCompositeAggregate }>({
      index,
      size: 0,
      track_total_hits: false,
      query,
      aggs: { watches: { composite: { size: page, sources: [{ id: { terms: { field: 'watch_id' } } }], ...(after ? { after } : {}) } } },
    });
    const agg = res.aggregations?.watches;
    const buckets = Array.isArray(agg?.buckets) ? agg.buckets : [];
    for (const bucket of buckets) yield String(bucket.key.id);
    after = buckets.length < page ? undefined : agg?.after_key;
  } while (after);
}
