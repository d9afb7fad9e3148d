/**
 * One building search as the tool asks it: a page of buildings in the market's shard (for a polygon
 * alone, the shards of the markets it reaches) and, for a thin first page, the buildings the first relaxation that finds any adds (./relax-buildings.ts),
 * both through one transport.
 */
import type { Deps } from '../../deps';
import type { IsoDate } from '../../kernel/inventory/records';
import { homesTransport } from '../shared/search-transport';
import type { BuildingQuery } from './building-query';
import type { PropertyCard } from './building-cards';
import { searchArea } from '../shared/search-area';
import { nearby } from './relax-steps';
import { relaxThinSearch, THIN_SEARCH, type AdditionalType } from './relax-buildings';
import { searchBuildings, type BuildingPage } from './run-building-search';
import { searchedOnSettledText } from '../shared/read-q';

export interface BuildingAnswer {
  found: BuildingPage;
  /** The relaxation's buildings, when the page may be relaxed and is thin and a relaxation finds any. */
  relaxed: { type: AdditionalType; cards: PropertyCard[] } | null;
}

/** Buildings `[offset, offset + size)` of `q`; `relax`: a thin page is relaxed (the first page). */
export function answerBuildingSearch(
  deps: Deps,
  q: BuildingQuery,
  page: { offset: number; size: number; relax: boolean },
  today: IsoDate,
  signal?: AbortSignal,
): Promise<BuildingAnswer> {
  // A q expanded before this request's generation read answered is confirmed by it (../shared/read-q.ts).
  return searchedOnSettledText(q, async (settled) => {
    // Without a market, the shards its shapes reach, the circle as wide as the nearby relaxation may draw it.
    const area = settled.location ? null : searchArea({ polygon: settled.polygon, filters: (nearby(settled) ?? settled).filters });
    const t = homesTransport(deps, { market: settled.location?.market.slug, area, signal });
    const found = await searchBuildings(deps, t, settled, page.offset, page.size, today);
    const shown = found.cards.map((c) => c.id);
    const relaxed = page.relax && found.totalProperties < THIN_SEARCH ? await relaxThinSearch(deps, t, settled, shown, page.size, today) : null;
    return { found, relaxed };
  });
}
