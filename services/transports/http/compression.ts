/**
 * Compressed answers: brotli (quality 2, a 256 KB window) or gzip (level 2), whichever the client's
 * Accept-Encoding prefers (brotli on a tie), for compressible types (JSON, text, HTML, script, CSS)
 * of COMPRESS_THRESHOLD_BYTES and more; `Vary: Accept-Encoding` on every answer.
 * - The whole body is compressed in one call into one buffer sent with its length (a JSON answer is
 *   already one buffer: caching.ts), not piped through a compression stream per answer.
 * - Up to SYNC_LIMIT_BYTES on the event loop (an apartment read's 24 KB in about 0.12 ms, less than
 *   a hand-off to the thread pool); a larger body (a map of 250 pins) in the thread pool.
 * - Quality 2: a compressed read within 1.2× the identity one (quality 4 sat at 1.2×) for 10 % more bytes.
 * - A body that already has its encodings (./static-files.ts) is sent as kept.
 * - An event stream is never compressed unless it is complete (`ctx.compress = true`): a compressor
 *   holds bytes back, and an event must reach its client when sent.
 * Figures: docs/performance.md, "Compression per answer"; the choice: docs/decisions.md, "HTTP caching,
 * compression and security headers".
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import type { Context, Middleware, Next } from 'koa';
import compressible from 'compressible';
import Negotiator from 'negotiator';

declare module 'koa' {
  interface DefaultContext {
    /** true: compress this answer whatever its type; false: never. */
    compress?: boolean;
  }
}

/** Below this an answer goes as it is: it fits one packet, and compressing it saves no round trip. */
export const COMPRESS_THRESHOLD_BYTES = 1400;
export const BROTLI_QUALITY = 2;
/** 2^18 bytes: the answers are at most a few hundred KB, and a smaller window is cheaper to set up. */
export const BROTLI_LGWIN = 18;
export const GZIP_LEVEL = 2;
/** Above this a body is compressed in the thread pool, so a large one does not hold the event loop. */
export const SYNC_LIMIT_BYTES = 64 * 1024;

export type Coding = 'br' | 'gzip';
const OFFERED = ['br', 'gzip', 'identity'];

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const brotliOptions = (size: number): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [constants.BROTLI_PARAM_LGWIN]: BROTLI_LGWIN,
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
  },
});
const gzipOptions: ZlibOptions = { level: GZIP_LEVEL };

/** One body compressed whole, with the settings above. */
export function compressWhole(body: Buffer, coding: Coding): Promise<Buffer> | Buffer {
  const sync = body.length <= SYNC_LIMIT_BYTES;
  if (coding === 'br') return sync ? brotliCompressSync(body, brotliOptions(body.length)) : brotliAsync(body, brotliOptions(body.length));
  return sync ? gzipSync(body, gzipOptions) : gzipAsync(body, gzipOptions);
}

type Encodings = (available: readonly string[], options: { preferred: readonly string[] }) => string[];

/** The coding to send: the client's preference, brotli on a tie; identity without Accept-Encoding. */
export function codingOf(ctx: Context): Coding | null {
  const accept = ctx.get('Accept-Encoding');
  if (!accept) return null;
  const negotiator = new Negotiator({ headers: { 'accept-encoding': accept === '*' ? 'gzip' : accept } });
  // negotiator 1.x breaks ties by the server's preference; its published types (0.6) do not list the option.
  const encodings = negotiator.encodings.bind(negotiator) as unknown as Encodings;
  const best = encodings(OFFERED, { preferred: OFFERED })[0];
  return best === 'br' || best === 'gzip' ? best : null;
}

/** A body that holds its own encodings, made once (./static-files.ts): the middleware asks it. */
export interface Precompressed {
  readonly identity: Buffer;
  encoded(coding: Coding): Buffer | Promise<Buffer>;
}

const precompressed = new WeakMap<Buffer, Precompressed>();

/** Sets `file` as the answer's body: its identity bytes, which the compressor swaps for the kept encoding. */
export function sendPrecompressed(ctx: Context, file: Precompressed): void {
  ctx.body = file.identity;
  precompressed.set(file.identity, file);
}

const isEventStream = (type: string): boolean => /^text\/event-stream\b/i.test(type);
const EMPTY_STATUSES = new Set([204, 205, 304]);

function compressibleAnswer(ctx: Context): boolean {
  if (ctx.compress === false || ctx.method === 'HEAD' || EMPTY_STATUSES.has(ctx.status) || ctx.status === 206) return false;
  if (ctx.response.get('Content-Encoding') || /(?:^|,)\s*no-transform\s*(?:,|$)/.test(ctx.response.get('Cache-Control'))) return false;
  if (ctx.compress === true) return true;
  const type = ctx.response.type;
  return !isEventStream(type) && compressible(type) === true;
}

export function compression(): Middleware {
  return async function compress(ctx: Context, next: Next): Promise<void> {
    ctx.vary('Accept-Encoding');
    await next();
    const body: unknown = ctx.body;
    if (!(typeof body === 'string' || Buffer.isBuffer(body)) || ctx.res.headersSent || !ctx.writable) return;
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    if (bytes.length < COMPRESS_THRESHOLD_BYTES || !compressibleAnswer(ctx)) return;
    const coding = codingOf(ctx);
    if (!coding) return;
    const kept = precompressed.get(bytes);
    const encoded = await (kept ? kept.encoded(coding) : compressWhole(bytes, coding));
    ctx.body = encoded; // Koa sets the length of the encoded bytes
    ctx.set('Content-Encoding', coding);
  };
}
