/**
 * Runs one building search (docs/contract.md, "search_properties_tool"): the units are the matches of an
 * apartment search (ExactSearch, so a unit's price is its quote's), grouped by building in
 * Elasticsearch. Counts come from a terms aggregation; a page of buildings from collapse (ES
 * orders, sent beside the counts in one `_msearch`), a terms order on an exact indexed price
 * (undated and Flex stays) or the price stream (fixed stays); then the page's units with their
 * open-at-other-dates siblings (one `_msearch`) and the building records. Two round trips for an
 * order ES applies; nothing loads more than the page's buildings into Node.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { Deps } from '../../deps';
import type { IsoDate } from '../../kernel/inventory/records';
import { badRequest } from '../../kernel/errors';
import type { HomeDocument } from '../../kernel/store/home-document';
import { hitDocument } from '../shared/hit-fields';
import { shapeCard, type OtherDates, type PropertyCard, type OtherDatesUnit, type PricedUnit, type UnitDocument } from './building-cards';
import { matchedByHome } from '../shared/matched-texts';
import { BUILDING_WINDOW, PROPERTIES_MAX_BYTES } from '../../kernel/limits/pages';
import {
  buildingSortClauses,
  collapsedPageBody,
  countsBody,
  otherDatesBody,
  priceMetric,
  readCounts,
  type TermsBucket,
  UNIT_BATCH,
  unitsBody,
} from './building-body';
import { buildingsInPriceOrder } from './building-order';
import { effectiveSort, isPriceSort, unitSearchParams, type BuildingQuery } from './building-query';
import { nearPoint } from '../shared/filters';
import { ExactSearch, startsInPast } from '../shared/exact-search';
import { matchClauses } from '../shared/search-body';
import { totalOf, type SearchResponse, type SearchTransport } from '../shared/search-transport';

export interface BuildingPage {
  cards: PropertyCard[];
  /** Buildings of the page left out to keep its cards under PROPERTIES_MAX_BYTES (docs/decisions.md, "Bounded answers"). */
  omitted: number;
  totalProperties: number;
  totalHomes: number;
  /** Elasticsearch requests sent and units priced. */
  stats: { requests: number; priced: number };
}

const empty = (): BuildingPage => ({ cards: [], omitted: 0, totalProperties: 0, totalHomes: 0, stats: { requests: 0, priced: 0 } });

export async function searchBuildings(deps: Deps, t: SearchTransport, q: BuildingQuery, offset: number, size: number, today: IsoDate): Promise<BuildingPage> {
  const p = unitSearchParams(q);
  if (startsInPast(p, today)) return empty();
  const search = new ExactSearch(t, p);
  const filter = await search.filter();
  const sort = effectiveSort(q);
  const metric = isPriceSort(sort) ? priceMetric(q.stay) : null;
  const order = sort === 'price_desc' ? 'desc' : 'asc';

  // A descending price stream completes a building when it has shown all its units: it needs them counted per building.
  const stream = !metric && isPriceSort(sort);
  // A page reaching past BUILDING_WINDOW asks only for the counts: empty past the last building, refused otherwise.
  const beyondWindow = offset + size > BUILDING_WINDOW;
  const countsRequest = countsBody(filter, {
    unitsPerBuilding: stream && order === 'desc',
    ...(metric && !beyondWindow ? { pricePage: { order, size: offset + size, metric } } : {}),
  });
  // An order ES applies by collapse: the page of buildings asked for beside the counts, in one round trip.
  const collapsed = !metric && !isPriceSort(sort);
  const [counts, collapsedPage] = await search.sendAll([
    countsRequest,
    ...(collapsed && !beyondWindow ? [collapsedPageBody(filter, buildingSortClauses(sort, nearPoint(q.filters)), offset, size)] : []),
  ]);
  const { totalProperties, unitsPerBuilding, byPrice } = readCounts(counts.aggregations as Record<string, unknown> | undefined);
  const totalHomes = totalOf(counts);
  const stats = () => ({ requests: search.stats.requests, priced: search.stats.priced });
  if (offset >= totalProperties || size === 0) return { cards: [], omitted: 0, totalProperties, totalHomes, stats: stats() };
  if (beyondWindow) {
    throw badRequest(
      'invalid_parameters',
      `This page reaches past building ${BUILDING_WINDOW.toLocaleString('en-US')} of ${totalProperties.toLocaleString('en-US')}; narrow the search (a city, filters, a price range) or page with a larger per_page.`,
    );
  }

  let ids: string[];
  if (metric) {
    ids = byPrice.slice(offset);
  } else if (collapsed) {
    ids = collapsedPage.hits.hits.map((h) => hitDocument(h).property_id);
  } else {
    ids = await fixedStayPriceOrder(search, order, unitsPerBuilding, offset, size, totalHomes);
  }
  if (ids.length === 0) return { cards: [], omitted: 0, totalProperties, totalHomes, stats: stats() };
  const { cards, omitted } = await cardsWithinBytes(deps, search, q, filter, ids);
  return { cards, omitted, totalProperties, totalHomes, stats: stats() };
}

/** Buildings whose cards are read and shaped at a time: a page stops reading once its cards pass the byte budget. */
const CARD_BATCH = 100;

/**
 * The cards of the page's buildings in order, while their JSON stays under PROPERTIES_MAX_BYTES, read
 * CARD_BATCH buildings at a time; `omitted`: the page's buildings left out (docs/decisions.md, "Bounded answers").
 */
async function cardsWithinBytes(
  deps: Deps,
  search: ExactSearch,
  q: BuildingQuery,
  filter: estypes.QueryDslQueryContainer[],
  ids: readonly string[],
): Promise<{ cards: PropertyCard[]; omitted: number }> {
  const ctx = { publicBaseUrl: deps.config.publicBaseUrl, near: nearPoint(q.filters) };
  const cards: PropertyCard[] = [];
  let bytes = 0;
  for (let from = 0; from < ids.length; from += CARD_BATCH) {
    const batch = ids.slice(from, from + CARD_BATCH);
    const [[units, other], byId] = await Promise.all([unitsAndOtherDates(search, q, filter, batch), deps.buildings.many(batch)]);
    // A building removed from the store since the last index run is left out rather than shown half-known.
    const shaped = batch.map((id) => {
      const property = byId.get(id);
      const matching = units.get(id) ?? [];
      return property && matching.length > 0 ? shapeCard(property, matching, other.get(id) ?? { count: 0, units: [] }, ctx) : null;
    });
    // With q, each unit shown carries the fields it matched, and a building those of the first unit its card shows
    // (the building's own texts are every unit's; its cheapest unit may be left off by the per-bedroom cap).
    const shown = shaped.flatMap((c) => (c ? c.units.map((u) => u.id) : []));
    const matched = q.text && q.text.length > 0 ? await matchedByHome({ search: (body) => search.send(body) }, [...new Set(shown)], q.text) : null;
    for (const [i, built] of shaped.entries()) {
      if (!built) continue;
      const card: PropertyCard = matched
        ? {
            ...built,
            units: built.units.map((u) => ({ ...u, matched: matched.get(u.id) ?? [] })),
            matched: matched.get(built.units[0]?.id ?? '') ?? [],
          }
        : built;
      bytes += Buffer.byteLength(JSON.stringify(card)) + 1;
      if (bytes > PROPERTIES_MAX_BYTES) return { cards, omitted: ids.length - from - i };
      cards.push(card);
    }
  }
  return { cards, omitted: 0 };
}

/** What placing a building by its cheapest unit reads of each unit in the price stream: its building and price. */
const STREAM_SOURCE = ['home_id', 'property_id', 'pricing', 'reference_price'] as const;
type StreamedUnit = Pick<HomeDocument, 'home_id' | 'property_id' | 'pricing' | 'reference_price'>;

/** Fixed stays sorted by price: the price stream of the units, read until the page's buildings are placed. */
async function fixedStayPriceOrder(
  search: ExactSearch,
  order: 'asc' | 'desc',
  unitsPerBuilding: ReadonlyMap<string, number>,
  offset: number,
  size: number,
  totalHomes: number,
): Promise<string[]> {
  const need = offset + size;
  // Buildings hold about ten units; the first read covers a few per building, later ones double.
  let n = Math.min(Math.max(50, need * 4), Math.max(totalHomes, 1));
  for (;;) {
    const { homes } = await search.homes<StreamedUnit>(0, n, STREAM_SOURCE);
    const placed = buildingsInPriceOrder(
      homes.map((h) => h.doc.property_id),
      order,
      unitsPerBuilding,
    );
    if (placed.length >= need || n >= totalHomes) return placed.slice(offset, need);
    n = Math.min(n * 2, totalHomes);
  }
}

/**
 * Every matching unit of the page's buildings, priced (the same prices as the apartment search), and
 * their units open at other dates (none for an undated search): the first batch of units and the
 * other dates in one round trip, further batches of units (over UNIT_BATCH) after it.
 */
async function unitsAndOtherDates(
  search: ExactSearch,
  q: BuildingQuery,
  filter: estypes.QueryDslQueryContainer[],
  ids: readonly string[],
): Promise<[Map<string, PricedUnit[]>, Map<string, OtherDates>]> {
  const base = matchClauses({ ...search.p, stay: { kind: 'undated' }, price: { min: null, max: null } });
  const [unitsRes, otherRes] = await search.sendAll([
    unitsBody(filter, ids, search.p.stay),
    ...(q.stay.kind === 'undated' ? [] : [otherDatesBody(base, q.stay, ids)]),
  ]);
  const byBuilding = new Map<string, PricedUnit[]>();
  for (let res = unitsRes; ;) {
    const docs = res.hits.hits.map((h) => hitDocument<UnitDocument>(h));
    for (const { doc, priced } of search.priced(docs)) {
      byBuilding.set(doc.property_id, [...(byBuilding.get(doc.property_id) ?? []), { doc, priced }]);
    }
    if (res.hits.hits.length < UNIT_BATCH) break;
    res = await search.send(unitsBody(filter, ids, search.p.stay, res.hits.hits[res.hits.hits.length - 1].sort));
  }
  return [byBuilding, otherDatesOf(otherRes)];
}

/** Units of the page's buildings that meet every filter but the dates, from the other-dates aggregation. */
function otherDatesOf(res: SearchResponse | undefined): Map<string, OtherDates> {
  const found = new Map<string, OtherDates>();
  const agg = (res?.aggregations as Record<string, unknown> | undefined)?.other_dates as
    { buckets: Array<TermsBucket & { soonest: { hits: { hits: Array<{ _source?: unknown; fields?: Record<string, unknown> }> } } }> } | undefined;
  for (const b of agg?.buckets ?? []) {
    found.set(b.key, { count: b.doc_count, units: b.soonest.hits.hits.map((h) => otherDatesUnit(hitDocument(h))) });
  }
  return found;
}

/** The listed fields of a unit alone (a card carries more). */
function otherDatesUnit(doc: HomeDocument): OtherDatesUnit {
  const { unit_number, bedrooms, bathrooms, sqft, earliest_available_date } = doc;
  return { unit_number, bedrooms, bathrooms, sqft, earliest_available_date };
}
