/**
 * Compressed answers (koa-compress): brotli at quality 4 or gzip at level 5, whichever the client's
 * Accept-Encoding prefers (brotli on a tie), for compressible types (JSON, text, HTML, script, CSS)
 * of 1 KB and more; `Vary: Accept-Encoding` on every answer. An event stream is never compressed: a
 * compressor holds bytes back until it has enough, and an event must reach its client when sent.
 * Figures: docs/performance.md, "Compression".
 */
import { constants } from 'node:zlib';
import type { Context, Middleware } from 'koa';
import compress from 'koa-compress';
import compressible from 'compressible';
import Negotiator from 'negotiator';

export const COMPRESS_THRESHOLD_BYTES = 1024;
export const BROTLI_QUALITY = 4;
export const GZIP_LEVEL = 5;

const isEventStream = (type: string): boolean => /^text\/event-stream\b/i.test(type);

export function compression(): Middleware {
  return compress({
    threshold: COMPRESS_THRESHOLD_BYTES,
    filter: (type) => !isEventStream(type) && compressible(type) === true,
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    gzip: { level: GZIP_LEVEL },
    // Only the two every client has; zstd (Node 24 has it) and deflate are not offered.
    zstd: false,
    deflate: false,
    encodingPreference: [...ENCODINGS],
  });
}

/** The encodings offered, in the order preferred on a tie. */
export const ENCODINGS = ['br', 'gzip', 'identity'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/**
 * The encoding the compressor gives a request, negotiated as koa-compress does: `*` is gzip, no
 * Accept-Encoding is identity. A kept answer's compressed bytes (./kept-encodings.ts) are chosen by it.
 */
export function negotiatedEncoding(ctx: Context): Encoding {
  const header = ctx.request.headers['accept-encoding'];
  const accept = header === '*' ? 'gzip' : header || 'identity';
  const chosen = new Negotiator({ headers: { 'accept-encoding': accept } }).encoding(ENCODINGS, { preferred: ENCODINGS });
  return ENCODINGS.find((e) => e === chosen) ?? 'identity';
}
