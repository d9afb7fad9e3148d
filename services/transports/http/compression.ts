/**
 * Compressed answers (koa-compress): brotli at quality 4 or gzip at level 5, whichever the client's
 * Accept-Encoding prefers (brotli on a tie), for compressible types (JSON, text, HTML, script, CSS)
 * of 1 KB and more; `Vary: Accept-Encoding` on every answer. An event stream is never compressed: a
 * compressor holds bytes back until it has enough, and an event must reach its client when sent.
 * Figures: docs/performance.md, "Compression".
 */
import { constants } from 'node:zlib';
import type { Middleware } from 'koa';
import compress from 'koa-compress';
import compressible from 'compressible';

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
    encodingPreference: ['br', 'gzip', 'identity'],
  });
}
