/**
 * Relevance of word search over the bench inventory (docs/performance.md, "Relevance"): the judged set
 * of test/support/judged-queries.ts (building names as written and with a typo, amenities, synonyms,
 * neighbourhoods, two-word combinations), drawn over every searchable home, each query asked through
 * the service (GET /api/public/search, q and its market, relevance order), over three markets (the first,
 * middle and last by slug). Reports precision at 10 and
 * the share of queries whose first result is relevant, overall and by kind. Target: ≥ 0.95 each.
 */
import { judge, judgedQueries } from '../support/judged-queries';
import { expectedResults, loadWorld } from '../support/search-model';
import type { BenchContext } from './store-bench';

const QUERIES = 300;

export async function relevanceBench(ctx: BenchContext): Promise<void> {
  // Three markets, the first, middle and last by slug: the whole bench world is more than one read of the Mongo-wire server holds.
  const slugs = (await ctx.mongo.markets.find({}, { projection: { slug: 1 } }).toArray()).map((m) => m.slug).sort();
  const markets = [...new Set([slugs[0], slugs[Math.floor(slugs.length / 2)], slugs[slugs.length - 1]])];
  const world = await loadWorld(ctx.mongo, ctx.today, markets);
  const set = judgedQueries(
    expectedResults(world, {}).map((r) => r.m),
    QUERIES,
  );
  const service = await ctx.service();
  const answers: string[][] = [];
  for (const j of set) {
    const res = await fetch(`${service.url}/api/public/search?${new URLSearchParams({ market: j.market, q: j.q, per_page: '10' })}`);
    const body = (await res.json()) as { homes?: Array<{ slug: string }> };
    answers.push((body.homes ?? []).map((h) => h.slug));
  }
  const { all, byKind } = judge(set, answers);
  ctx.say(`## Relevance (${set.length} judged queries over the ${world.homes.length} homes of ${markets.join(', ')}, of ${ctx.homes})`);
  ctx.say('');
  ctx.say('| queries | count | precision at 10 | first result right |');
  ctx.say('|---|---|---|---|');
  for (const [kind, j] of byKind) ctx.say(`| ${kind} | ${j.queries} | ${j.precisionAt10.toFixed(3)} | ${j.firstRight.toFixed(3)} |`);
  ctx.say(`| **all** (target ≥ 0.95 each) | ${set.length} | **${all.precisionAt10.toFixed(3)}** | **${all.firstRight.toFixed(3)}** |`);
  ctx.say('');
}
