/**
 * Photo lists of a home, from its canonical records (docs/contract.md, "Photos",
 * get_apartment_tool rule 5): unit photos first, then building photos.
 */
import type { HomeRecord, PropertyRecord } from '../kernel/inventory/records';
import { heroPhoto, orderedPhotos } from '../kernel/inventory/photo-order';
import { photoUrl, widgetPhotoUrl } from '../media/photos';
import { MEDIA_PHOTOS } from '../kernel/limits/media';

export interface DetailPhoto {
  url: string;
  widget_url: string;
  source: 'unit' | 'building';
  position: number;
  caption?: string;
  hero?: true;
}

export interface MediaItem {
  url: string;
  widget_url: string;
  type: 'photo';
  source: 'unit' | 'property';
  position: number;
}

/** The full, uncapped list; the first carries `hero: true`. */
export function detailPhotos(home: HomeRecord, property: PropertyRecord, baseUrl: string): DetailPhoto[] {
  return orderedPhotos(home, property).map((p, position) => ({
    url: photoUrl(baseUrl, p.id),
    widget_url: widgetPhotoUrl(baseUrl, p.id),
    // The detail names the building's photos "building" (docs/contract.md, get_apartment_tool rule 5).
    source: p.source === 'unit' ? ('unit' as const) : ('building' as const),
    position,
    ...(p.caption ? { caption: p.caption } : {}),
    ...(position === 0 ? { hero: true as const } : {}),
  }));
}

/** The `media` of an apartment, a quote or a comparison: up to MEDIA_PHOTOS photos, hero first. */
export function mediaItems(home: HomeRecord, property: PropertyRecord, baseUrl: string): MediaItem[] {
  return orderedPhotos(home, property)
    .slice(0, MEDIA_PHOTOS)
    .map(({ id, source }, position) => ({
      url: photoUrl(baseUrl, id),
      widget_url: widgetPhotoUrl(baseUrl, id),
      type: 'photo',
      source,
      position,
    }));
}

/** The id of the hero photo, or null. */
export function heroPhotoId(home: HomeRecord, property: PropertyRecord): string | null {
  return heroPhoto(home, property)?.id ?? null;
}
