/**
 * Photo lists of a home, from its canonical records (spec: "Apartment detail" photos/media,
 * "Quote" media, "Search result" media): unit photos first, then building photos.
 */
import type { HomeRecord, PropertyRecord } from '../kernel/inventory/records';
import { photoUrl, widgetPhotoUrl } from '../media/photos';

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
  const all = [
    ...home.photos.map((p) => ({ p, source: 'unit' as const })),
    ...property.photos.map((p) => ({ p, source: 'building' as const })),
  ];
  return all.map(({ p, source }, position) => ({
    url: photoUrl(baseUrl, p.id),
    widget_url: widgetPhotoUrl(baseUrl, p.id),
    source,
    position,
    ...(p.caption ? { caption: p.caption } : {}),
    ...(position === 0 ? { hero: true as const } : {}),
  }));
}

/** Up to `limit` photos, hero first (spec: "photos in media: up to 6 (search: 1)"). */
export function mediaItems(home: HomeRecord, property: PropertyRecord, baseUrl: string, limit: number): MediaItem[] {
  const ids = [
    ...home.photos.map((p) => ({ id: p.id, source: 'unit' as const })),
    ...property.photos.map((p) => ({ id: p.id, source: 'property' as const })),
  ].slice(0, limit);
  return ids.map(({ id, source }, position) => ({
    url: photoUrl(baseUrl, id),
    widget_url: widgetPhotoUrl(baseUrl, id),
    type: 'photo',
    source,
    position,
  }));
}

/** The id of the hero photo (first unit photo, else first building photo), or null. */
export function heroPhotoId(home: HomeRecord, property: PropertyRecord): string | null {
  return home.photos[0]?.id ?? property.photos[0]?.id ?? null;
}
