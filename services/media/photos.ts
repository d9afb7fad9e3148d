/**
 * Photos the service serves itself, stored in MongoDB so every stateless copy can serve them.
 * URLs: `/media/<id>.jpg` (full) and `/media/<id>-800.jpg` (800 px widget variant).
 */
import type { Collections, PhotoBlobRecord } from '../kernel/store/collections';

export function photoUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/media/${encodeURIComponent(id)}.jpg`;
}

export function widgetPhotoUrl(baseUrl: string, id: string): string {
  return `${baseUrl}/media/${encodeURIComponent(id)}-800.jpg`;
}

/** Parses `/media/<file>`: which photo, which variant; null for anything else. */
export function parseMediaFile(file: string): { id: string; variant: 'full' | 'widget' } | null {
  const m = /^([a-z0-9][a-z0-9_-]{0,80}?)(-800)?\.jpg$/.exec(file);
  if (!m) return null;
  return { id: m[1], variant: m[2] ? 'widget' : 'full' };
}

/** A small in-process cache: the demo pool is ~100 photos, production would sit behind a CDN. */
export class PhotoStore {
  private readonly cache = new Map<string, PhotoBlobRecord>();

  constructor(
    private readonly c: Collections,
    private readonly maxEntries = 256,
  ) {}

  async get(id: string): Promise<PhotoBlobRecord | null> {
    const hit = this.cache.get(id);
    if (hit) return hit;
    const doc = await this.c.photos.findOne({ _id: id });
    if (!doc) return null;
    const blob: PhotoBlobRecord = { ...doc, full: toBuffer(doc.full), widget: toBuffer(doc.widget) };
    if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(id, blob);
    return blob;
  }
}

/** The driver returns BSON Binary for stored buffers. */
function toBuffer(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  const bin = value as { buffer?: Uint8Array };
  return Buffer.from(bin.buffer ?? new Uint8Array());
}
