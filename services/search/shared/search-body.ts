/**
 * `buildSearchBody(params, phase)`: the Elasticsearch request of each step of an apartment search,
 * built by one pure function from small getters (STYLE: Vendure's build-elastic-body, Searchkit's
 * transformRequest) and tested by its output. The steps:
 *
 * - `page`: one page of the matching homes in a sort ES can apply itself, with the exact total;
 * - `straddlers`: fixed stays with price limits, the homes whose price band crosses a limit (each
 *   is priced exactly in Node, and those that pass are named in the later requests);
 * - `price_stream`: fixed stays sorted by price, the matching homes in order of their band's bound,
 *   batch after batch, for the threshold algorithm (price-order.ts).
 */
import type { estypes } from '@elastic/elasticsearch';
import type { HomeDocument } from '../../kernel/store/home-document';
import { filterClauses, locationClauses } from './filters';
import { viewportClause } from './viewport';
import { polygonClause } from './polygon';
import type { PricedDocument } from './result-price';
import { sortClauses } from './sorts';
import { textClause } from './text-clause';
import { hitFields } from './hit-fields';
import { CARD_FIELDS } from '../../kernel/store/home-card';
import { hasPriceLimits, type SearchParams } from './search-params';
import { availabilityClauses, bandCandidateClause, bandInsideClause, exactPriceClauses, impliesBookable, priceSort } from './stay-clauses';

type Query = estypes.QueryDslQueryContainer;
export type SortValues = estypes.SortResults;

/** Aggregations a caller computes over the same matching homes (the map's clusters, the facets), counted beside the request's hits. */
export type SearchAggregations = Record<string, estypes.AggregationsAggregationContainer>;

export type SearchPhase =
  | { kind: 'page'; from: number; size: number; passing?: readonly string[]; aggs?: SearchAggregations }
  | { kind: 'straddlers'; size: number; after?: SortValues }
  | {
      kind: 'price_stream';
      size: number;
      after?: SortValues;
      passing?: readonly string[];
      withTotal: boolean;
      source?: readonly string[];
      aggs?: SearchAggregations;
    };

/** What the results are shaped from (apartments/result-shape.ts), and what exact pricing reads. */
export type ResultDocument = Pick<
  HomeDocument,
  | 'home_id'
  | 'slug'
  | 'name'
  | 'unit_number'
  | 'property_id'
  | 'bedrooms'
  | 'bathrooms'
  | 'sqft'
  | 'city_name'
  | 'location'
  | 'rating_average'
  | 'rating_count'
  | 'hero_photo_id'
  | 'hero_photo_source'
  | 'flex_eligible'
  | 'earliest_available_date'
  | 'reference_price'
  | 'pricing'
> &
  PricedDocument;

/** The fields of a ResultDocument, as the page and the price stream fetch them: a home's card. */
export const RESULT_SOURCE: readonly string[] = CARD_FIELDS;

/** A Flex search without a tier shows the cheapest tier the home can hold: it needs the tiers' move-in dates. */
export function resultSource(p: SearchParams): readonly string[] {
  return p.stay.kind === 'flex' && p.stay.committed_nights === null ? [...RESULT_SOURCE, 'flex_stays'] : RESULT_SOURCE;
}
export const STRADDLER_SOURCE = ['home_id', 'pricing'];

/** "min_rating"/"guest_rating": the building's average at least the threshold; unrated buildings never match. */
export function ratingClauses(minRating: number | null): Query[] {
  return minRating === null ? [] : [{ range: { rating_average: { gte: minRating } } }];
}

/** Whether the page is ordered by how well its homes match q: its words are then a scored clause (`must`), not a filter. */
export const scoresText = (p: Pick<SearchParams, 'sort' | 'text'>): boolean => p.sort === 'relevance' && (p.text?.length ?? 0) > 0;

/** q's clause in a scoring context, for a page ordered by relevance (with its other conditions as filters). */
export function scoredText(p: Pick<SearchParams, 'sort' | 'text'>): { must?: Query[] } {
  return scoresText(p) ? { must: [textClause(p.text!)] } : {};
}

/** Every condition a result must meet that ES can decide exactly; q's words among them unless `scored` puts them in the query's `must`. */
export function matchClauses(p: SearchParams, scored = false): Query[] {
  return [
    ...(p.text && p.text.length > 0 && !scored ? [textClause(p.text)] : []),
    ...locationClauses(p.location, impliesBookable(p.stay)),
    ...(p.viewport ? [viewportClause(p.viewport)] : []),
    ...(p.polygon ? [polygonClause(p.polygon)] : []),
    ...filterClauses(p.filters),
    ...ratingClauses(p.minRating),
    ...availabilityClauses(p.stay),
    ...exactPriceClauses(p.stay, p.price),
    ...(p.extra ?? []),
  ];
}

/** Fixed stays with limits: inside the limits by the band alone, or priced exactly and passing. */
export function fixedPriceClauses(p: SearchParams, passing: readonly string[] | undefined): Query[] {
  if (p.stay.kind !== 'fixed' || !hasPriceLimits(p.price)) return [];
  const passed: Query[] = passing && passing.length > 0 ? [{ terms: { home_id: [...passing] } }] : [];
  return [{ bool: { should: [bandInsideClause(p.stay, p.price), ...passed], minimum_should_match: 1 } }];
}

/** The order of the pages, by the stay's indexed price when sorted by price (a fixed stay's band bound: the price stream's order). */
export function pageSort(p: SearchParams): estypes.SortCombinations[] {
  return sortClauses(p.sort, (order) => priceSort(p.stay, order));
}

/** Whether the order needs the threshold algorithm: a fixed stay's price is not in the index. */
export function needsPriceStream(p: SearchParams): boolean {
  return p.stay.kind === 'fixed' && (p.sort === 'price_asc' || p.sort === 'price_desc');
}

/** The most hits a page reads its texts as written with (a list's page; a map's pins get theirs apart, for the list's homes only). */
export const PAGE_TEXTS_MAX = 100;

/**
 * A page of a search with q reads its hits' texts as written (`match_card`, a doc value) with them, so
 * their `matched` needs no second request (../shared/matched-texts.ts).
 */
function withTexts(
  fields: Pick<estypes.SearchRequest, '_source' | 'docvalue_fields' | 'stored_fields'>,
  p: SearchParams,
  size: number,
): Pick<estypes.SearchRequest, '_source' | 'docvalue_fields' | 'stored_fields'> {
  if (!p.text || p.text.length === 0 || size > PAGE_TEXTS_MAX) return fields;
  return { ...fields, docvalue_fields: [...((fields.docvalue_fields as string[] | undefined) ?? []), 'match_card'] };
}

export function buildSearchBody(p: SearchParams, phase: SearchPhase): estypes.SearchRequest {
  const filter = matchClauses(p);
  switch (phase.kind) {
    case 'page':
      return {
        track_total_hits: true,
        from: phase.from,
        size: phase.size,
        ...withTexts(hitFields(resultSource(p)), p, phase.size),
        query: { bool: { filter: [...matchClauses(p, scoresText(p)), ...fixedPriceClauses(p, phase.passing)], ...scoredText(p) } },
        sort: pageSort(p),
        ...(phase.aggs ? { aggs: phase.aggs } : {}),
      };
    case 'straddlers': {
      if (p.stay.kind !== 'fixed') throw new Error('only a fixed stay has price bands');
      return {
        track_total_hits: false,
        size: phase.size,
        // Batches of a thousand homes, of which only the pricing inputs are read: from the card (a _source read opens every stored block).
        ...hitFields(STRADDLER_SOURCE),
        query: {
          bool: { filter: [...filter, bandCandidateClause(p.stay, p.price)], must_not: [bandInsideClause(p.stay, p.price)] },
        },
        sort: [{ home_id: 'asc' }],
        ...(phase.after ? { search_after: phase.after } : {}),
      };
    }
    case 'price_stream':
      return {
        track_total_hits: phase.withTotal,
        size: phase.size,
        // A caller may name its fields (the building search's units); the card serves them when it holds them.
        ...hitFields(phase.source ?? resultSource(p)),
        query: { bool: { filter: [...filter, ...fixedPriceClauses(p, phase.passing)] } },
        sort: pageSort(p),
        ...(phase.after ? { search_after: phase.after } : {}),
        ...(phase.aggs ? { aggs: phase.aggs } : {}),
      };
  }
}

/**
 * A request whose aggregations are counted in a search of their own, sent beside it in one `_msearch`
 * (docs/decisions.md, "Aggregations in a search of their own"): the hits' search keeps its query,
 * sort and page, with no aggregations and no total; the counting search has the same query, no hits,
 * the aggregations and the total. Elasticsearch runs the two at once, and a top-k without a total or
 * aggregations skips the homes that cannot enter it. The total and the aggregations come from one
 * search, so they count the same homes (a map's clusters add up to its total).
 */
export function aggregationsApart(body: estypes.SearchRequest): [hits: estypes.SearchRequest, counting: estypes.SearchRequest] {
  const { aggs, track_total_hits, ...hits } = body;
  if (aggs === undefined) throw new Error('a request without aggregations has none to send apart');
  // Two searches would not count what one counts: a post_filter narrows the hits after the aggregations, a collapse groups them.
  if (body.post_filter !== undefined || body.collapse !== undefined)
    throw new Error('a request with a post_filter or a collapse cannot send its aggregations apart');
  // The counting search keeps everything but what shapes the hits (their page, order and fields).
  const { from: _from, size: _size, sort: _sort, search_after: _after, _source, stored_fields: _stored, docvalue_fields: _docvalues, ...matching } = hits;
  return [
    { ...hits, track_total_hits: false },
    { ...matching, size: 0, track_total_hits: track_total_hits ?? false, aggs },
  ];
}
