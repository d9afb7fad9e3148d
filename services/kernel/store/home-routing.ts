/**
 * Which shard of the homes index holds a home's document: the one its market routes to. Every
 * search of the request path names one market (a display city lies inside one), so it reads that
 * one shard instead of every market's documents; the market list and searches that cross markets
 * read them all. The indexer writes with this routing and the service searches with it: the two
 * must agree, so both take it from here (docs/decisions.md, "Shards and routing").
 */
export function homeRouting(marketSlug: string): string {
  return marketSlug;
}
