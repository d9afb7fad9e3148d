/**
 * What a cache may keep of a GET answer (docs/operations.md, "HTTP caching and compression"):
 * - a strong ETag, the hash of the body's bytes (`etag`), and 304 without a body to an
 *   If-None-Match that names it (Koa's `ctx.fresh`; docs/decisions.md, "HTTP caching, compression and
 *   security headers");
 * - under /api/public, `Cache-Control: public, max-age=N, stale-while-revalidate=M` on a success
 *   (N and M from the config: the index changes at most once per incremental run), `no-cache` on the
 *   status report, and `no-store` on every error answer of any path.
 * The fixed documents (OpenAPI, tool list, server card…) are serialized and hashed once, at start
 * (`fixedDocument`), so their 304 costs a header comparison; a search is answered, then hashed (an
 *   answer kept per index generation, once).
 */
import { stat } from 'node:fs/promises';
import { Stream } from 'node:stream';
import type { Context, Middleware, Next } from 'koa';
import entityTag from 'etag';
import { bufferBytes, formOf, stringBytes } from '../../kernel/store/answer-forms';
import { noteRequest } from '../../kernel/tracing';

export interface CachePolicy {
  /** Seconds a cache may serve a success of /api/public without asking again. */
  maxAgeSeconds: number;
  /** Seconds past that a cache may still serve it while it asks again in the background. */
  staleWhileRevalidateSeconds: number;
}

/** A body that never changes while the process runs: its bytes, their type and their ETag, made once. */
export interface FixedDocument {
  readonly body: string;
  readonly type: string;
  readonly etag: string;
}

export function fixedDocument(value: unknown, type = 'application/json; charset=utf-8'): FixedDocument {
  const body = typeof value === 'string' ? value : JSON.stringify(value);
  return { body, type, etag: entityTag(body) }; // the tag tagBody would give the same bytes
}

/** Answers a fixed document: tagBody leaves an ETag already set alone, so nothing is hashed. */
export function sendFixed(ctx: Context, doc: FixedDocument): void {
  ctx.type = doc.type;
  ctx.body = doc.body;
  ctx.etag = doc.etag;
}

/** The GET answers worth a validator: the public API, the page and its files, the well-known documents. */
function validated(ctx: Context): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  const p = ctx.path;
  return p.startsWith('/api/public/') || p === '/' || p.startsWith('/app/') || p.startsWith('/.well-known/');
}

/** An answer's UTF-8 bytes and their ETag (the tag tagBody would give them). */
interface Written {
  bytes: Buffer;
  tag: string;
}

/** The frozen answer whose kept bytes a body is (./kept-encodings.ts compresses those once per encoding). */
const answerOfBytes = new WeakMap<Buffer, object>();

/** The frozen answer a body is the kept bytes of, if it is. */
export const keptAnswerOf = (body: unknown): object | undefined => (Buffer.isBuffer(body) ? answerOfBytes.get(body) : undefined);

function bytesOf(body: object): Written {
  const json = JSON.stringify(body);
  if (!Object.isFrozen(body)) {
    const bytes = Buffer.from(json);
    return { bytes, tag: entityTag(bytes) };
  }
  // A frozen answer keeps its bytes (the tool server keeps its string: ../written-json.ts), in a buffer of its
  // own: a small one from Buffer.from would hold Node's shared 8 KB pool slab for as long as it is kept.
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
  bytes.write(json);
  answerOfBytes.set(bytes, body);
  return { bytes, tag: entityTag(bytes) };
}

/**
 * A plain JSON value as Koa would write it, encoded once: the ETag, the length, the compressor and the
 * socket read the same bytes (a string would be encoded for each; a map of 250 pins is about 275 kB).
 * A frozen answer's bytes and ETag are made once for every request it serves (tagBody leaves an
 * ETag already set alone).
 */
function serializeJson(ctx: Context): void {
  const body: unknown = ctx.body;
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body) || typeof (body as { pipe?: unknown }).pipe === 'function') return;
  // A frozen answer's bytes and tag are kept beside it and counted in the bound of the answers kept.
  const written = formOf(
    body,
    'bytes',
    () => bytesOf(body),
    (w) => bufferBytes(w.bytes) + stringBytes(w.tag),
  );
  ctx.body = written.bytes; // the Content-Type set with the object (application/json) stays
  ctx.etag = written.tag;
}

function cacheControl(ctx: Context, policy: CachePolicy): void {
  if (ctx.status >= 400) {
    ctx.set('Cache-Control', 'no-store');
    return;
  }
  if (!ctx.path.startsWith('/api/public/') || ctx.status >= 300 || ctx.response.get('Cache-Control')) return;
  // The status report is read to learn the service's state now: a cache may keep it only to revalidate.
  ctx.set(
    'Cache-Control',
    ctx.path === '/api/public/status' ? 'no-cache' : `public, max-age=${policy.maxAgeSeconds}, stale-while-revalidate=${policy.staleWhileRevalidateSeconds}`,
  );
}

/** A success the handler left untagged: a string or bytes by their hash, a file stream by its size and time. */
async function tagBody(ctx: Context): Promise<void> {
  const body: unknown = ctx.body;
  if (!body || ctx.status < 200 || ctx.status >= 300 || ctx.response.get('ETag')) return;
  if (typeof body === 'string' || Buffer.isBuffer(body)) ctx.etag = entityTag(body);
  else if (body instanceof Stream && 'path' in body && typeof body.path === 'string') ctx.etag = entityTag(await stat(body.path));
}

/** Outside the error middleware (it sees error answers as written), inside the compressor (it hashes the identity bytes). */
export function httpCaching(policy: CachePolicy): Middleware {
  return async function cacheHeaders(ctx: Context, next: Next): Promise<void> {
    if (!validated(ctx)) {
      await next();
      if (ctx.status >= 400) ctx.set('Cache-Control', 'no-store');
      return;
    }
    await next();
    if (ctx.status < 300) serializeJson(ctx);
    cacheControl(ctx, policy);
    await tagBody(ctx);
    // Koa's `fresh` compares If-None-Match (and If-Modified-Since) with the validators just set.
    if (ctx.fresh) {
      noteRequest({ 'catalog.cache': 'not_modified' });
      ctx.status = 304;
      ctx.body = null;
    }
  };
}
