/**
 * A request answered before its body was read whole (413 past BODY_LIMIT_BYTES, a shed 503, a 429, a
 * 405 or 415 on a POST) must not leave the rest of that body on its connection: the next request of a
 * keep-alive client would wait behind it and never be answered (raw-body pauses the stream it refuses).
 * The rest is read and dropped, at most `maxBytes` within `maxMs` (past either, the connection is cut);
 * a body declared larger than `maxBytes` is not read at all: its answer says `Connection: close`.
 */
import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';

export interface DrainBound {
  maxBytes: number;
  maxMs: number;
}

/** Enough for a refused upload a few times the body limit; the connection is cut past either. */
export const UNREAD_BODY_DRAIN: DrainBound = { maxBytes: 8 * 1024 * 1024, maxMs: 5_000 };

/** Reads and drops what is left of `req`'s body; destroys the connection past the bound. */
function drain(req: IncomingMessage, bound: DrainBound): void {
  let left = bound.maxBytes;
  const cut = (): void => {
    req.socket.destroy();
  };
  const timer = setTimeout(cut, bound.maxMs);
  timer.unref();
  const settled = (): void => clearTimeout(timer);
  req.once('end', settled);
  req.once('close', settled);
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) cut();
  });
  req.resume();
}

/** The outermost middleware: it sees every answer, the first middleware's refusals too. */
export function unreadBodies(bound: DrainBound = UNREAD_BODY_DRAIN) {
  return async function settleUnreadBody(ctx: Context, next: Next): Promise<void> {
    await next();
    const req = ctx.req;
    // A body read whole (or none: a GET's message is complete with its headers) leaves nothing behind.
    if (req.complete || req.destroyed || ctx.respond === false) return;
    if (/\bclose\b/i.test(ctx.response.get('Connection'))) return;
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > bound.maxBytes) {
      ctx.set('Connection', 'close');
      return;
    }
    drain(req, bound);
  };
}
