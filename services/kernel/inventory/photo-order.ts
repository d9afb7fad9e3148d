/**
 * The one order of a home's photos (docs/contract.md, "Photos", get_apartment_tool rule 5): the unit's own photos
 * first, then its building's. The first is the hero, for the apartment read, the quote, search
 * results and the index alike.
 */
import type { HomeRecord, PhotoRef, PropertyRecord } from './records';

export interface OrderedPhoto extends PhotoRef {
  source: 'unit' | 'property';
}

export function orderedPhotos(home: HomeRecord, property: PropertyRecord): OrderedPhoto[] {
  return [...home.photos.map((p) => ({ ...p, source: 'unit' as const })), ...property.photos.map((p) => ({ ...p, source: 'property' as const }))];
}

/** The hero photo, or null when neither the unit nor its building has a photo. */
export function heroPhoto(home: HomeRecord, property: PropertyRecord): OrderedPhoto | null {
  if (home.photos[0]) return { ...home.photos[0], source: 'unit' };
  if (property.photos[0]) return { ...property.photos[0], source: 'property' };
  return null;
}
