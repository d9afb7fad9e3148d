/**
 * Photos the service serves itself, stored in MongoDB so every stateless copy can serve them.
 * URLs: `/media/<id>.jpg` (full) and `/media/<id>-800.jpg` (800 px widget variant).
 */
import { LRUCache } from 'lru-cache';
import sharp from 'sharp';
import type { Collections, PhotoBlobRecord } from '../kernel/store/collections';

/**
 * Largest photo embedded in a tool result (MCP hosts cap a result near 1 MiB; a search embeds
 * up to 5). The 800 px variant is used as it is when it fits, else a smaller copy is made once.
 */
export const EMBED_MAX_BYTES = 64 * 1024;
const EMBED_FALLBACK = { width: 480, quality: 68 } as const;

/** A JPEG within `maxBytes`: the photo itself when it fits, else scaled down and recompressed. */
export async function embeddablePhoto(jpeg: Buffer, maxBytes = EMBED_MAX_BYTES): Promise<Buffer> {
  if (jpeg.length <= maxBytes) return jpeg;
  let width: number = EMBED_FALLBACK.width;
  let quality: number = EMBED_FALLBACK.quality;
  for (;;) {
    const out = await sharp(jpeg).resize({ width, withoutEnlargement: true }).jpeg({ quality, mozjpeg: true }).toBuffer();
    if (out.length <= maxBytes || width <= 160) return out;
    width = Math.round(width * 0.75);
    quality = Math.max(40, quality - 8);
  }
}

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

/** How long a photo MongoDB did not have is answered 404 without asking again: a photo stored later shows within it. */
export const PHOTO_MISS_TTL_MS = 60_000;
/** Ids remembered as missing: a bound on the memory a scan of made-up names can take (about 1 MB). */
export const PHOTO_MISSES_KEPT = 10_000;

/**
 * A small in-process cache: the demo pool is ~100 photos, production would sit behind a CDN. A miss
 * is remembered for PHOTO_MISS_TTL_MS, so a scan of made-up names costs MongoDB one read per name.
 */
export class PhotoStore {
  private readonly cache = new Map<string, PhotoBlobRecord>();
  private readonly misses = new LRUCache<string, true>({ max: PHOTO_MISSES_KEPT, ttl: PHOTO_MISS_TTL_MS });
  private readonly embeds = new Map<string, Promise<Buffer | null>>();

  constructor(
    private readonly c: Collections,
    private readonly maxEntries = 256,
  ) {}

  async get(id: string): Promise<PhotoBlobRecord | null> {
    const hit = this.cache.get(id);
    if (hit) return hit;
    if (this.misses.has(id)) return null;
    const doc = await this.c.photos.findOne({ _id: id });
    if (!doc) {
      this.misses.set(id, true);
      return null;
    }
    const blob: PhotoBlobRecord = { ...doc, full: toBuffer(doc.full), widget: toBuffer(doc.widget) };
    if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(id, blob);
    return blob;
  }

  /** The photo as a tool result embeds it: the widget variant within EMBED_MAX_BYTES (one scaling per photo). */
  embedded(id: string): Promise<Buffer | null> {
    let hit = this.embeds.get(id);
    if (!hit) {
      hit = this.get(id).then((blob) => (blob ? embeddablePhoto(blob.widget) : null));
      // A failed read is not kept: the next call tries again.
      hit.catch(() => this.embeds.delete(id));
      if (this.embeds.size >= this.maxEntries) this.embeds.delete(this.embeds.keys().next().value as string);
      this.embeds.set(id, hit);
    }
    return hit;
  }
}

/** The driver returns BSON Binary for stored buffers. */
function toBuffer(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  const bin = value as { buffer?: Uint8Array };
  return Buffer.from(bin.buffer ?? new Uint8Array());
}
