/**
 * Compression and revalidation (docs/performance.md, "Compression and revalidation"): a 25-home
 * search page and an apartment read, each asked without compression, with gzip, with brotli, and
 * revalidated with If-None-Match (a 304), at concurrency 16: the body bytes on the wire per answer,
 * the throughput and the service's processor time per call. The same 50 questions per shape in every
 * row, so the rows differ only in what the client accepts.
 */
import { request } from 'undici';
import { BROTLI_QUALITY, GZIP_LEVEL } from '../../services/transports/http/compression';
import { withCpu } from './cpu';
import { fmt, runLoad, type Probe } from './load';
import type { BenchContext } from './store-bench';

const QUESTIONS = 50;
const CONNECTIONS = 16;

interface Question {
  path: string;
  etag: string;
}

type Variant = { title: string; headers: (q: Question) => Record<string, string> };

const VARIANTS: Variant[] = [
  { title: 'identity', headers: () => ({ 'accept-encoding': 'identity' }) },
  { title: `gzip (level ${GZIP_LEVEL})`, headers: () => ({ 'accept-encoding': 'gzip' }) },
  { title: `br (quality ${BROTLI_QUALITY})`, headers: () => ({ 'accept-encoding': 'br' }) },
  { title: '304 (If-None-Match)', headers: (q) => ({ 'accept-encoding': 'br', 'if-none-match': q.etag }) },
];

/** Body bytes as sent (undici does not decode), and the ETag for the revalidation row. */
async function ask(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; bytes: number; etag: string }> {
  const res = await request(url + path, { headers });
  const bytes = Buffer.from(await res.body.arrayBuffer()).length;
  return { status: res.statusCode, bytes, etag: String(res.headers.etag ?? '') };
}

export async function httpBench(ctx: BenchContext, seconds: number): Promise<void> {
  const { say, sample } = ctx;
  const svc = await ctx.service();
  const shapes: Array<{ title: string; path: () => string }> = [
    {
      title: 'search, 25 homes',
      path: () => {
        const stay = sample.stay();
        return `/api/public/search?${new URLSearchParams({ market: sample.marketSlug(), check_in: stay.start, check_out: stay.end, per_page: '25' })}`;
      },
    },
    { title: 'apartment read', path: () => `/api/public/homes/${sample.slug()}` },
  ];
  say('## Compression and revalidation (GET, concurrency 16)');
  say('');
  say('| call | accepts | body bytes on the wire (mean) | req/s | p50 ms | p99 ms | service CPU ms/call |');
  say('|---|---|---|---|---|---|---|');
  for (const shape of shapes) {
    const questions: Question[] = [];
    while (questions.length < QUESTIONS) {
      const path = shape.path();
      const first = await ask(svc.url, path, {});
      if (first.status === 200) questions.push({ path, etag: first.etag });
    }
    for (const variant of VARIANTS) {
      let total = 0;
      for (const q of questions) total += (await ask(svc.url, q.path, variant.headers(q))).bytes;
      let i = 0;
      const next = (): Probe => {
        const q = questions[i++ % questions.length];
        return { path: q.path, headers: variant.headers(q) };
      };
      const { result, cpu } = await withCpu({ service: svc.pid }, () => runLoad(svc.url, next, { connections: CONNECTIONS, seconds }));
      const bad = (result.statuses['5xx'] ?? 0) + (result.statuses.error ?? 0);
      say(
        `| ${shape.title} | ${variant.title} | ${Math.round(total / questions.length).toLocaleString('en-US')} | ${Math.round(result.rps)} | ` +
          `${fmt(result.p50)} | ${fmt(result.p99)} | ${cpu.service?.toFixed(2) ?? ''}${bad ? ` (${bad} failed)` : ''} |`,
      );
    }
  }
  say('');
}
