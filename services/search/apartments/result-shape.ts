/**
 * The pure response shaper of the apartment searches (docs/contract.md, "search_apartments_tool"): an index document
 * and its exact price in, one result out. No I/O: photos, links and Flex tiers come from the
 * document, prices from the engine.
 */
import { offeredTiers } from '../../kernel/engine/flex';
import { displayPrice } from '../../kernel/engine/pricing';
import type { IsoDate } from '../../kernel/inventory/records';
import { homeUrl } from '../../homes/links';
import { photoUrl, widgetPhotoUrl } from '../../media/photos';
import { haversineMiles } from '../shared/distance';
import type { ResultPrice } from '../shared/result-price';
import type { ResultDocument } from '../shared/search-body';
import type { StayDates } from '../../stays/stay-dates';

export interface ShapeContext {
  publicBaseUrl: string;
  siteBaseUrl: string;
  today: IsoDate;
  stay: StayDates;
  near: { lat: number; lon: number } | null;
}

function flexOptions(doc: ResultDocument, start: IsoDate) {
  // "flex_options: always included for eligible apartments": every offered tier with its all-in monthly price.
  return offeredTiers(doc.pricing).map((t) => {
    const p = displayPrice(doc.pricing, { kind: 'flex', start_date: start, committed_nights: t.committed_nights });
    return { committed_nights: t.committed_nights, display_price_with_discount: p.display_price_with_discount, display_price_label: p.display_price_label };
  });
}

export function shapeResult(doc: ResultDocument, priced: ResultPrice, ctx: ShapeContext) {
  const hero = doc.hero_photo_id;
  const media = hero
    ? [
        {
          url: photoUrl(ctx.publicBaseUrl, hero),
          widget_url: widgetPhotoUrl(ctx.publicBaseUrl, hero),
          type: 'photo' as const,
          source: doc.hero_photo_source ?? 'unit',
          position: 0,
        },
      ]
    : [];
  // Flex options from the move-in shown: a window's chosen start, else the search's.
  const start = priced.stay?.start_date ?? (ctx.stay.kind === 'undated' ? ctx.today : ctx.stay.start_date);
  return {
    slug: doc.slug,
    name: doc.name,
    bedrooms: doc.bedrooms,
    bathrooms: doc.bathrooms,
    sqft: doc.sqft,
    city: doc.city_name,
    latitude: doc.location.lat,
    longitude: doc.location.lon,
    ...(ctx.near ? { distance_miles: Math.round(haversineMiles(ctx.near, doc.location) * 100) / 100 } : {}),
    ...(priced.stay ? { stay: priced.stay } : {}),
    ...priced.price,
    home_url: homeUrl(ctx.siteBaseUrl, doc.slug, priced.link),
    ...(media[0] ? { hero_image_url: media[0].url, widget_hero_image_url: media[0].widget_url } : {}),
    media,
    eligible_for_flex: doc.flex_eligible,
    ...(doc.flex_eligible ? { flex_options: flexOptions(doc, start) } : {}),
    ...(doc.rating_average !== null ? { property: { member_rating: { average: doc.rating_average, count: doc.rating_count } } } : {}),
    earliest_available_date: doc.earliest_available_date,
  };
}

export type SearchResultItem = ReturnType<typeof shapeResult>;

/** The operator's website search for Flex stays in the same place (none named for a map's viewport alone) and from the same date. */
export function flexSearchUrl(siteBaseUrl: string, placeSlug: string | null, stay: StayDates): string {
  const q = new URLSearchParams(placeSlug === null ? { end_date: 'indefinite' } : { location: placeSlug, end_date: 'indefinite' });
  if (stay.kind !== 'undated') q.set('start_date', stay.start_date);
  if (stay.kind === 'flex' && stay.committed_nights !== null) q.set('committed_nights', String(stay.committed_nights));
  return `${siteBaseUrl}/search?${q.toString()}`;
}
