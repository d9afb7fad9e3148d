/**
 * Relevance of word search over the bench inventory (docs/performance.md, "Relevance"): the judged set
 * of test/support/judged-queries.ts (building names as written and with a typo, amenities, synonyms,
 * neighbourhoods, two-word combinations), drawn over every searchable home, each query asked through
 * the service (GET /api/public/search, q and its market, relevance order). Reports precision at 10 and
 * the share of queries whose first result is relevant, overall and by kind. Target: ≥ 0.95 each.
 */
import { judge, judgedQueries } from '../support/judged-queries';
import { expectedResults, loadWorld } from '../support/search-model';
import type { BenchContext } from './store-bench';

const QUERIES = 300;

export async function relevanceBench(ctx: BenchContext): Promise<void> {
  const world = await loadWorld(ctx.mongo, ctx.today);
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
  ctx.say(`## Relevance (${set.length} judged queries over ${ctx.homes} homes)`);
  ctx.say('');
  ctx.say('| queries | count | precision at 10 | first result right |');
  ctx.say('|---|---|---|---|');
  for (const [kind, j] of byKind) ctx.say(`| ${kind} | ${j.queries} | ${j.precisionAt10.toFixed(3)} | ${j.firstRight.toFixed(3)} |`);
  ctx.say(`| **all** (target ≥ 0.95 each) | ${set.length} | **${all.precisionAt10.toFixed(3)}** | **${all.firstRight.toFixed(3)}** |`);
  ctx.say('');
}
