/**
 * How a search asks for the fields of its hits, and reads them back: from the card doc value
 * (kernel/store/home-card.ts) when it holds them all, else from `_source`. Every request-path search
 * that reads hits takes both halves from here, so a hit is read the way it was asked for.
 */
import type { estypes } from '@elastic/elasticsearch';
import { cardHolds, decodeCard, type HomeCard } from '../../kernel/store/home-card';
import type { HomeDocument } from '../../kernel/store/home-document';

/** The part of a search body that names what its hits return. */
export function hitFields(fields: readonly string[]): Pick<estypes.SearchRequest, '_source' | 'docvalue_fields' | 'stored_fields'> {
  // No stored field at all, not even `_id` (the card holds home_id): loading one opens the compressed block of stored fields.
  return cardHolds(fields) ? { stored_fields: ['_none_'], docvalue_fields: ['card'] } : { _source: [...fields] };
}

/** A hit as the fields it was asked for (the card carries more: the caller reads what it asked). */
export function hitDocument<D = HomeDocument>(hit: { _source?: unknown; fields?: Record<string, unknown> }): D {
  const card = hit.fields?.card;
  const doc = Array.isArray(card) && typeof card[0] === 'string' ? (decodeCard(card[0]) as HomeCard as D) : (hit._source as D);
  // A page with q reads its texts as written beside the card (search-body.ts, withTexts): they go with the document.
  const texts = hit.fields?.match_card;
  if (Array.isArray(texts) && typeof texts[0] === 'string' && doc !== null && typeof doc === 'object') Object.assign(doc, { match_card: texts[0] });
  return doc;
}
