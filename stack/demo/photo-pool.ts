/**
 * The fixed pool of demo photo ids. Homes and buildings reference ids from it rather than one
 * picture each, so seeding renders 120 pictures whatever the inventory size. Ids are stable:
 * "ph-001".."ph-096" are rooms (living room, bedroom, kitchen in turn), "ph-097".."ph-120" are
 * building exteriors.
 */
import { hashKey } from './prng';

const PHOTO_POOL_SIZE = 120;
const ROOM_PHOTOS = 96;

export type PhotoKind = 'living_room' | 'bedroom' | 'kitchen' | 'exterior';

const CAPTIONS: Record<PhotoKind, string> = {
  living_room: 'Living room',
  bedroom: 'Bedroom',
  kitchen: 'Kitchen',
  exterior: 'Building exterior',
};

function poolId(n: number): string {
  return `ph-${String(n).padStart(3, '0')}`;
}

/** Every photo id the demo inventory references, in order. */
export function photoPool(): string[] {
  return Array.from({ length: PHOTO_POOL_SIZE }, (_, i) => poolId(i + 1));
}

/** What a photo shows; ids outside the pool get a kind from their hash, so any id renders. */
export function photoKind(id: string): PhotoKind {
  const m = /^ph-(\d{3})$/.exec(id);
  const n = m ? Number(m[1]) : 0;
  if (n >= 1 && n <= PHOTO_POOL_SIZE) {
    if (n > ROOM_PHOTOS) return 'exterior';
    return (['living_room', 'bedroom', 'kitchen'] as const)[(n - 1) % 3];
  }
  return (['living_room', 'bedroom', 'kitchen', 'exterior'] as const)[hashKey('kind', id) % 4];
}

export function photoCaption(id: string): string {
  return CAPTIONS[photoKind(id)];
}

function idsOf(kind: PhotoKind): readonly string[] {
  return photoPool().filter((id) => photoKind(id) === kind);
}

export const LIVING_ROOM_PHOTO_IDS = idsOf('living_room');
export const BEDROOM_PHOTO_IDS = idsOf('bedroom');
export const KITCHEN_PHOTO_IDS = idsOf('kitchen');
export const EXTERIOR_PHOTO_IDS = idsOf('exterior');
