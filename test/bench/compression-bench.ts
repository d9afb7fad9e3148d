/**
 * What compressing an answer costs (docs/performance.md, "Compression per answer"), on a small seeded
 * world (60 homes) and the service in this process:
 * 1. the compressor alone on an apartment read's and a 25-home search's bytes: a zlib stream per
 *    answer (what koa-compress does) against one call over the whole buffer, sync and async, at the
 *    levels considered;
 * 2. the apartment read and the search at concurrency 1 through one keep-alive connection, without
 *    Accept-Encoding and with `gzip, deflate, br`, the two asked in turn so both see the same machine.
 * Run: `npx tsx test/bench/compression-bench.ts`.
 */
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, createBrotliCompress, createGzip, gzip, gzipSync, type BrotliOptions } from 'node:zlib';
import { Pool } from 'undici';
import { CLIENT_ACCEPT_ENCODING } from './load';
import { startFixture } from '../support/fixture';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const ms = (from: bigint): number => Number(process.hrtime.bigint() - from) / 1e6;

async function streamed(stream: NodeJS.ReadWriteStream, body: Buffer): Promise<number> {
  Readable.from([body]).pipe(stream);
  let n = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) n += chunk.length;
  return n;
}

const brotli = (quality: number, lgwin: number, size: number): BrotliOptions => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_LGWIN]: lgwin, [constants.BROTLI_PARAM_SIZE_HINT]: size },
});

async function compressors(label: string, body: Buffer): Promise<void> {
  const ways: Array<[string, () => Promise<number> | number]> = [
    ['stream, br 4 (koa-compress)', () => streamed(createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }), body)],
    ['stream, gzip 5 (koa-compress)', () => streamed(createGzip({ level: 5 }), body)],
    ['one call sync, br 4, lgwin 22', () => brotliCompressSync(body, brotli(4, 22, body.length)).length],
    ['one call sync, br 4, lgwin 18', () => brotliCompressSync(body, brotli(4, 18, body.length)).length],
    ['one call sync, br 3, lgwin 18', () => brotliCompressSync(body, brotli(3, 18, body.length)).length],
    ['one call sync, br 2, lgwin 18', () => brotliCompressSync(body, brotli(2, 18, body.length)).length],
    ['one call sync, br 1, lgwin 18', () => brotliCompressSync(body, brotli(1, 18, body.length)).length],
    ['one call async, br 4, lgwin 18', async () => (await brotliAsync(body, brotli(4, 18, body.length))).length],
    ['one call sync, gzip 4', () => gzipSync(body, { level: 4 }).length],
    ['one call sync, gzip 2', () => gzipSync(body, { level: 2 }).length],
    ['one call sync, gzip 1', () => gzipSync(body, { level: 1 }).length],
    ['one call async, gzip 4', async () => (await gzipAsync(body, { level: 4 })).length],
  ];
  for (const [way, run] of ways) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 600; i++) {
      const t = process.hrtime.bigint();
      bytes = await run();
      if (i >= 100) times.push(ms(t));
    }
    console.log(`| ${label} | ${way} | ${body.length.toLocaleString('en-US')} / ${bytes.toLocaleString('en-US')} | ${median(times).toFixed(3)} |`);
  }
}

async function main(): Promise<void> {
  const fx = await startFixture({ homes: 60 });
  const pool = new Pool(fx.url, { connections: 1 });
  try {
    const home = await fx.mongo.collections.homes.findOne({ published: true, deleted_at: null });
    const { body } = await fx.get('/api/public/markets');
    const paths = { 'apartment read': `/api/public/homes/${home?.slug}`, 'search, 25 homes': `/api/public/search?market=${body.markets[0].slug}&per_page=25` };
    console.log('| answer | compressor | bytes, identity / compressed | ms (median) |\n|---|---|---|---|');
    for (const [label, path] of Object.entries(paths)) {
      const res = await pool.request({ path, method: 'GET' });
      await compressors(label, Buffer.from(await res.body.arrayBuffer()));
    }
    console.log('\n| answer, c=1 | identity p50 ms | bytes | gzip, deflate, br p50 ms | bytes | ratio |\n|---|---|---|---|---|---|');
    for (const [label, path] of Object.entries(paths)) {
      const times: Record<'identity' | 'compressed', number[]> = { identity: [], compressed: [] };
      const bytes = { identity: 0, compressed: 0 };
      for (let i = 0; i < 2200; i++) {
        for (const kind of i % 2 ? (['identity', 'compressed'] as const) : (['compressed', 'identity'] as const)) {
          const t = process.hrtime.bigint();
          const res = await pool.request({ path, method: 'GET', headers: kind === 'compressed' ? CLIENT_ACCEPT_ENCODING : {} });
          bytes[kind] = Buffer.from(await res.body.arrayBuffer()).length;
          if (i >= 200) times[kind].push(ms(t));
        }
      }
      const [id, co] = [median(times.identity), median(times.compressed)];
      console.log(
        `| ${label} | ${id.toFixed(2)} | ${bytes.identity.toLocaleString('en-US')} | ${co.toFixed(2)} | ${bytes.compressed.toLocaleString('en-US')} | ${(co / id).toFixed(2)} |`,
      );
    }
  } finally {
    await pool.close();
    await fx.close();
  }
}

void main();
