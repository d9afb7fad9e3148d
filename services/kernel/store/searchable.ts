/**
 * "Searchable": the homes a search, the market list and a market's filters and figures may count or
 * return. The indexer sets `bookable` on a home's document (published, undeleted, with a stay that
 * can start; ./home-document.ts); every read asks for it with this one clause.
 */
import type { estypes } from '@elastic/elasticsearch';

export const SEARCHABLE: Readonly<estypes.QueryDslQueryContainer> = Object.freeze({ term: Object.freeze({ bookable: true }) });
