/**
 * The apartment search sent to the homes alias (search_apartments_tool and the map): in the shard
 * of the search's market, or, when it names none (a map's viewport or a polygon alone may cross
 * markets), in the shards of the markets its shapes reach.
 */
import type { Deps } from '../../deps';
import type { IsoDate } from '../../kernel/inventory/records';
import type { SearchAggregations } from '../shared/search-body';
import type { PriceUnit, SearchParams } from '../shared/search-params';
import { homesTransport, type RoundTrip } from '../shared/search-transport';
import { searchArea } from '../shared/search-area';
import { searchHomes, type SearchFound } from './search-homes';
import { searchWindow } from './window-search';
import { matchedByHome, matchedFromCards } from '../shared/matched-texts';
import { searchedOnSettledText } from '../shared/read-q';

/** Sees each round trip's bodies, as sent (the bench replays them). */
export type TripRecorder = (trip: RoundTrip) => void;

export interface ApartmentSearchOptions {
  record?: TripRecorder;
  /** Computed over every matching home in the request that counts them (the map's clusters). */
  aggs?: SearchAggregations;
  /** The facet counts too, with price buckets in this unit (the unit of the search's price limits). */
  facets?: PriceUnit;
  /** With q, which of the page's homes get their matched fields (the map's pins: the list's page only); all by default. */
  matchedOf?: (ids: string[]) => string[];
}

/** The matching homes `[offset, offset + size)` of `p` in its order, with the exact total; the request's budget carries its signal. */
export function searchApartments(
  deps: Pick<Deps, 'es' | 'config' | 'esNodes' | 'routingKeys' | 'marketExtents'>,
  p: SearchParams,
  offset: number,
  size: number,
  today: IsoDate,
  options: ApartmentSearchOptions = {},
): Promise<SearchFound> {
  // A q expanded before this request's generation read answered is confirmed by it (../shared/read-q.ts).
  return searchedOnSettledText(p, (settled) => searchOnce(deps, settled, offset, size, today, options));
}

async function searchOnce(
  deps: Pick<Deps, 'es' | 'config' | 'esNodes' | 'routingKeys' | 'marketExtents'>,
  p: SearchParams,
  offset: number,
  size: number,
  today: IsoDate,
  options: ApartmentSearchOptions,
): Promise<SearchFound> {
  // Without a market, the shards of the markets its shapes can reach (docs/decisions.md, "A shape reads the shards of its markets").
  const area = p.location ? null : searchArea(p);
  const transport = homesTransport(deps, { market: p.location?.market.slug, area, record: options.record, signal: p.budget?.signal });
  // A window of move-in dates has its own steps; facets are refused with it (tools/search-args.ts).
  const found = await (p.window
    ? searchWindow(transport, { ...p, window: p.window }, offset, size, today, options.aggs)
    : searchHomes(transport, p, offset, size, today, options.aggs, options.facets));
  if (!p.text || p.text.length === 0) return found;
  const ids = found.homes.map((h) => h.doc.home_id);
  const wanted = options.matchedOf?.(ids) ?? ids;
  // The page's hits carried their texts (a list's page read by search-body.ts's withTexts): no second request.
  const carried = new Map(found.homes.map((h) => [h.doc.home_id, (h.doc as { match_card?: unknown }).match_card]));
  const cards = wanted.flatMap((id) => {
    const card = carried.get(id);
    return typeof card === 'string' ? [[id, card] as const] : [];
  });
  if (cards.length === wanted.length) return { ...found, matched: matchedFromCards(cards, p.text) };
  return { ...found, matched: await matchedByHome(transport, wanted, p.text) };
}
