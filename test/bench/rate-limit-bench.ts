/**
 * What the shared rate limits cost: the same cheap reads through a copy that counts
 * each client in MongoDB (the default, shared by every copy) and through one that counts in its own
 * memory (RATE_LIMIT_SHARED=false), at concurrency 1 and 16, slugs over the whole inventory.
 */
import { runLoad, row, TABLE_HEAD, type LoadResult, type Probe } from './load';
import type { BenchContext } from './store-bench';

export async function rateLimitBench(ctx: BenchContext, seconds: number): Promise<void> {
  const { say, sample } = ctx;
  const shared = await ctx.service();
  const memory = await ctx.serviceWith({ RATE_LIMIT_SHARED: 'false' });
  const shapes: Array<{ title: string; probe: () => Probe }> = [
    { title: 'GET policies-faq (no store call)', probe: () => ({ path: '/api/public/policies-faq' }) },
    { title: 'GET homes/{slug} (one MongoDB read)', probe: () => ({ path: `/api/public/homes/${sample.slugOrUnknown()}` }) },
  ];
  say('## Rate limits shared through MongoDB, beside limits in memory');
  say('');
  const lines = [...TABLE_HEAD];
  const added: string[] = [];
  for (const connections of [1, 16]) {
    for (const shape of shapes) {
      const results: Record<string, LoadResult> = {};
      for (const [name, svc] of [
        ['in memory', memory],
        ['shared (MongoDB)', shared],
      ] as const) {
        results[name] = await runLoad(svc.url, shape.probe, { connections, seconds });
        lines.push(row(`${shape.title}, limits ${name}, c=${connections}`, results[name]));
      }
      const a = results['in memory'];
      const b = results['shared (MongoDB)'];
      added.push(
        `- ${shape.title}, c=${connections}: p50 +${(b.p50 - a.p50).toFixed(2)} ms, throughput ${Math.round((b.rps / a.rps) * 100)} % of in-memory limits`,
      );
    }
  }
  for (const l of lines) say(l);
  say('');
  for (const l of added) say(l);
  say('');
}
