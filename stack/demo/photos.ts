/**
 * Procedural demo photos: `renderPhoto` draws the scene its id names (a room or a building
 * exterior, details from the id's hash) and encodes a real JPEG; `photoBlob` makes the record
 * the media route serves (`/media/<id>.jpg` full, `/media/<id>-800.jpg` widget).
 */
import type { PhotoBlobRecord } from '../../services/kernel/store/collections';
import { Canvas } from './canvas';
import sharp from 'sharp';
import { photoKind, type PhotoKind } from './photo-pool';
import { Rng, hashKey } from './prng';
import { drawBedroom } from './scenes/bedroom';
import { drawExterior } from './scenes/exterior';
import { drawKitchen } from './scenes/kitchen';
import { drawLivingRoom } from './scenes/living-room';

export { photoCaption, photoKind, photoPool } from './photo-pool';

export const FULL_SIZE = { width: 1200, height: 800 } as const;
export const WIDGET_SIZE = { width: 800, height: 533 } as const;
export const JPEG_QUALITY = 70;

const SCENES: Record<PhotoKind, (c: Canvas, rng: Rng) => void> = {
  living_room: drawLivingRoom,
  bedroom: drawBedroom,
  kitchen: drawKitchen,
  exterior: drawExterior,
};

/** A JPEG of the photo `id` (drawn here, encoded by sharp); the same id draws the same scene at any size. */
export async function renderPhoto(id: string, width: number, height: number): Promise<Buffer> {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 16 || height < 16 || width > 4000 || height > 4000) {
    throw new Error(`photo size out of range: ${width}x${height}`);
  }
  const canvas = new Canvas(width, height, [255, 255, 255]);
  SCENES[photoKind(id)](canvas, new Rng(hashKey('photo', id)));
  return sharp(canvas.data, { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .jpeg({ quality: JPEG_QUALITY })
    .toBuffer();
}

/** Both variants of a photo, ready for the `photos` collection. */
export async function photoBlob(id: string, createdAt: Date = new Date(Date.UTC(2025, 0, 1))): Promise<PhotoBlobRecord> {
  const [full, widget] = await Promise.all([renderPhoto(id, FULL_SIZE.width, FULL_SIZE.height), renderPhoto(id, WIDGET_SIZE.width, WIDGET_SIZE.height)]);
  return {
    _id: id,
    full,
    widget,
    width: FULL_SIZE.width,
    height: FULL_SIZE.height,
    created_at: createdAt,
  };
}
