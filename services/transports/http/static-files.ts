/**
 * A file the service serves unchanged for its whole life (the search page, its script, stylesheets
 * and basemap): its bytes, ETag and content hash made once, and each encoding compressed once, at
 * its first request, and kept. The set of such files is fixed and small (a few MB with their
 * encodings), so nothing is evicted. Compressed harder than a computed answer (./compression.ts):
 * the cost is paid once per process, the bytes saved on every request.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'koa';
import entityTag from 'etag';
import { Counter, type Registry } from 'prom-client';
import { sendPrecompressed, type Coding, type Precompressed } from './compression';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Brotli 9 and gzip 9: the 578 KB basemap in about 0.3 s once, against 15 ms of brotli 4 per request. */
export const STATIC_BROTLI_QUALITY = 9;
export const STATIC_GZIP_LEVEL = 9;

let compressions = 0;

/** Encodings made so far by every static file of the process (the metric catalog_static_compressions_total). */
export function staticCompressions(): number {
  return compressions;
}

const METRIC = 'catalog_static_compressions_total';

/** Reports staticCompressions() at each scrape of `registry` (the admin port's /metrics). */
export function reportStaticCompressions(registry: Registry): void {
  if (registry.getSingleMetric(METRIC)) return;
  new Counter({
    name: METRIC,
    help: 'Encodings of the static files (page, script, stylesheets, basemap) compressed by this process: each once',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(staticCompressions());
    },
  });
}

/** `Cache-Control` of a file whose name carries its content hash: it never changes under that name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export class StaticFile implements Precompressed {
  readonly identity: Buffer;
  readonly etag: string;
  /** 12 hex digits of the content's SHA-256: the part of a hashed name that changes with it. */
  readonly hash: string;
  private readonly encodings = new Map<Coding, Promise<Buffer>>();

  constructor(
    content: string | Buffer,
    readonly type: string,
  ) {
    this.identity = Buffer.isBuffer(content) ? content : Buffer.from(content);
    this.etag = entityTag(this.identity); // the tag @koa/etag would give the same bytes
    this.hash = createHash('sha256').update(this.identity).digest('hex').slice(0, 12);
  }

  /** `page.js` → `page.<hash>.js`. */
  hashedName(name: string): string {
    const dot = name.lastIndexOf('.');
    return `${name.slice(0, dot)}.${this.hash}${name.slice(dot)}`;
  }

  encoded(coding: Coding): Promise<Buffer> {
    let kept = this.encodings.get(coding);
    if (!kept) {
      compressions += 1;
      kept =
        coding === 'br'
          ? brotliAsync(this.identity, {
              params: { [constants.BROTLI_PARAM_QUALITY]: STATIC_BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: this.identity.length },
            })
          : gzipAsync(this.identity, { level: STATIC_GZIP_LEVEL });
      // A failed compression is not kept: the next request tries again.
      kept.catch(() => this.encodings.delete(coding));
      this.encodings.set(coding, kept);
    }
    return kept;
  }
}

/** Answers `file`: its type, ETag (a 304 to a matching If-None-Match: caching.ts) and Cache-Control; the compressor sends a kept encoding. */
export function sendStatic(ctx: Context, file: StaticFile, cacheControl: string): void {
  ctx.type = file.type;
  ctx.set('Cache-Control', cacheControl);
  sendPrecompressed(ctx, file);
  ctx.etag = file.etag;
}
