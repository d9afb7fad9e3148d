/**
 * A kept answer compressed once per encoding (docs/decisions.md, "The map's answers per generation"): the
 * bytes of an answer kept per index generation (./caching.ts keeps them) are compressed the first time a
 * client asks them in brotli or gzip, as ./compression.ts would compress them, and those bytes are kept
 * beside the answer (counted in the bound of the answers kept: kernel/store/answer-forms.ts) and sent to
 * every later request that negotiates the same encoding. The compressor leaves a body already encoded
 * alone. Between the compressor and the caching headers: it reads the bytes caching.ts leaves.
 */
import type { Context, Middleware, Next } from 'koa';
import { bufferBytes, formOf } from '../../kernel/store/answer-forms';
import { keptAnswerOf } from './caching';
import { codingOf, COMPRESS_THRESHOLD_BYTES, compressWhole } from './compression';

export function keptEncodings(): Middleware {
  return async function keptEncoding(ctx: Context, next: Next): Promise<void> {
    await next();
    const answer = keptAnswerOf(ctx.body);
    if (answer === undefined || ctx.method === 'HEAD' || ctx.status !== 200 || ctx.response.get('Content-Encoding')) return;
    const bytes = ctx.body as Buffer;
    if (bytes.length < COMPRESS_THRESHOLD_BYTES) return;
    const encoding = codingOf(ctx);
    if (encoding === null) return;
    // Compression that fails (it does not, short of memory) leaves the bytes to the compressor, as any answer's.
    const encoded = await formOf(answer, encoding, async () => compressWhole(bytes, encoding), bufferBytes).catch(() => null);
    if (encoded === null) return;
    ctx.body = encoded; // the Content-Type and the ETag (of the identity bytes, as the compressor leaves them) stay
    ctx.set('Content-Encoding', encoding);
  };
}
