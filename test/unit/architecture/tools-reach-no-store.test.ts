/**
 * The tools reach the stores only through the rooms below them: every Elasticsearch body is built
 * and sent under services/search/, every MongoDB read or write is a repository's. A tool imports no
 * store client (the Elasticsearch client or the search transport, the collections, the MongoDB
 * driver), reads no store handle from its dependencies, and writes no query clause of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');
const TOOLS = 'services/tools';

/** The modules that hold a store's client: only the rooms below the tools import them. */
const STORE_CLIENTS = [
  'services/kernel/store/collections',
  'services/kernel/store/es-client',
  'services/kernel/store/mongo',
  'services/kernel/store/node-watch',
  'services/kernel/store/home-routing',
  'services/search/shared/search-transport',
];
const STORE_PACKAGES = ['@elastic/elasticsearch', 'mongodb'];
/** The store handles of Deps (services/deps.ts). */
const STORE_HANDLE = /\bdeps\.(es|esNodes|routingKeys|mongo|db)\b/;
/** A query clause or a search request's own field written out. */
const QUERY_DSL = /\b(bool|term|terms|range|nested|geo_distance|geo_bounding_box|aggs)\s*:\s*\{|\b(track_total_hits|filter_path|search_after|collapse)\s*:/;

/** What one source file of the tools does that only a room below them may. */
export function storeReaches(file: string, text: string): string[] {
  const found: string[] = [];
  for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
    const target = spec.startsWith('.') ? path.normalize(path.join(path.dirname(file), spec)) : spec;
    if (STORE_CLIENTS.includes(target) || STORE_PACKAGES.includes(target)) found.push(`${file} imports ${target}`);
  }
  text.split('\n').forEach((line, i) => {
    if (STORE_HANDLE.test(line)) found.push(`${file}:${i + 1} reads a store handle: ${line.trim()}`);
    if (QUERY_DSL.test(line)) found.push(`${file}:${i + 1} writes a query clause: ${line.trim()}`);
  });
  return found;
}

describe('the tools reach no store', () => {
  it('holds for every source file of services/tools/', () => {
    const files = readdirSync(path.join(ROOT, TOOLS)).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((f) => storeReaches(path.join(TOOLS, f), readFileSync(path.join(ROOT, TOOLS, f), 'utf8')))).toEqual([]);
  });

  it('reports a tool that imports a store client, reads a store handle or writes a clause', () => {
    const tool = 'services/tools/get-market-info.ts';
    const text = [
      "import { homesTransport } from '../search/shared/search-transport';",
      "import type { Collections } from '../kernel/store/collections';",
      "import type { estypes } from '@elastic/elasticsearch';",
      'const homes = await deps.mongo.homes.find({}).toArray();',
      'const body = { size: 0, query: { bool: { filter: [{ term: { market_slug: slug } }] } } };',
    ].join('\n');
    expect(storeReaches(tool, text)).toEqual([
      `${tool} imports services/search/shared/search-transport`,
      `${tool} imports services/kernel/store/collections`,
      `${tool} imports @elastic/elasticsearch`,
      `${tool}:4 reads a store handle: const homes = await deps.mongo.homes.find({}).toArray();`,
      `${tool}:5 writes a query clause: const body = { size: 0, query: { bool: { filter: [{ term: { market_slug: slug } }] } } };`,
    ]);
  });
});
