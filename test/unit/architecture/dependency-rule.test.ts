/**
 * The layers of the code (docs/design.md, "Layers"): the kernel
 * (services/kernel) imports nothing outside itself; services/ imports neither indexer/ nor stack/;
 * indexer/ imports only the kernel and mappings/ (its entry point also the watch matching); inside search/, each query family stands on
 * search/shared/ alone and shared/ on no family. Checked on the import specifiers of every source
 * file, read with the TypeScript compiler's own pre-processor.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** Repository-relative targets of a file's relative imports (packages are not layers). */
export function localImports(file: string, text = readFileSync(path.join(ROOT, file), 'utf8')): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.normalize(path.join(path.dirname(file), spec)));
}

interface Rule {
  files: string;
  /** Whether `file` (of `files`) may import `target`. */
  may: (target: string, file: string) => boolean;
  says: string;
}

const inside = (dir: string) => (target: string) => target === dir || target.startsWith(dir + path.sep);

/** The service's upper floors: the tools, the transports and the documents derived from them, and the app that mounts them. */
const UPPER = ['services/tools', 'services/transports', 'services/docs', 'services/app', 'services/main'];
const upper = (target: string) => UPPER.some((dir) => inside(dir)(target));
/** The rooms the tools stand on: none of them may reach back up to a tool, a transport or a document. */
const LOWER_ROOMS = [
  'services/search',
  'services/homes',
  'services/widgets',
  'services/markets',
  'services/media',
  'services/policies',
  'services/buildings',
  'services/booking-intents',
  'services/contracts',
  'services/stays',
];

/** The query families of search/: each imports, of search/, only search/shared/ and itself. */
const SEARCH = 'services/search';
export const SEARCH_FAMILIES = ['apartments', 'buildings', 'map', 'markets', 'overview', 'places'];
const outsideSearch = (target: string) => !inside(SEARCH)(target);

export const RULES: Rule[] = [
  { files: 'services/kernel', may: inside('services/kernel'), says: 'the kernel imports nothing outside itself' },
  { files: 'services', may: (t) => !inside('indexer')(t) && !inside('stack')(t), says: 'services/ imports neither indexer/ nor stack/' },
  ...LOWER_ROOMS.map((room) => ({
    files: room,
    may: (t: string) => !upper(t),
    says: `${room.slice('services/'.length)}/ sits below the tools: it imports no tool, transport or document`,
  })),
  {
    files: 'services/contracts',
    may: (t: string) => inside('services/contracts')(t) || inside('services/kernel')(t),
    says: "contracts/ (the answers' schemas, shared by the rooms above) imports only the kernel",
  },
  ...SEARCH_FAMILIES.map((family) => ({
    files: `${SEARCH}/${family}`,
    may: (t: string) => outsideSearch(t) || inside(`${SEARCH}/shared`)(t) || inside(`${SEARCH}/${family}`)(t),
    says: `search/${family}/ stands on search/shared/ alone: it imports no other search family`,
  })),
  {
    files: `${SEARCH}/shared`,
    may: (t: string) => outsideSearch(t) || inside(`${SEARCH}/shared`)(t),
    says: 'search/shared/ (what the search families share) imports no search family',
  },
  {
    files: 'services/stays',
    may: (t: string) => inside('services/stays')(t) || inside('services/kernel')(t),
    says: "stays/ (the one stay reader and the tools' date policies) imports only the kernel",
  },
  {
    files: 'indexer',
    // One exception, for the worker's entry point alone: it composes the watch matching, which runs the
    // service's own search code under the run's lease; the indexing modules stay below services/.
    may: (t, file) =>
      inside('services/kernel')(t) || inside('mappings')(t) || inside('indexer')(t) || (file === 'indexer/worker.ts' && t === 'services/watch-matcher'),
    says: 'indexer/ imports only the kernel and mappings/ (and its entry point indexer/worker.ts the watch matching, services/watch-matcher)',
  },
];

export function violations(files: Array<{ file: string; imports: string[] }>): string[] {
  const out: string[] = [];
  for (const rule of RULES) {
    for (const { file, imports } of files) {
      if (!inside(rule.files)(file)) continue;
      for (const target of imports) if (!rule.may(target, file)) out.push(`${file} imports ${target}: ${rule.says}`);
    }
  }
  return out;
}

/** The room a file belongs to: its first folder under services/ (a file directly in services/ is a room of its own). */
function roomOf(file: string): string | null {
  const parts = path.normalize(file).split(path.sep);
  if (parts[0] !== 'services') return null;
  return parts.length > 2 ? parts[1] : parts[1].replace(/\.ts$/, '');
}

/** Cycles between rooms of services/ (type-only imports included), each as the rooms it passes. */
export function roomCycles(files: Array<{ file: string; imports: string[] }>): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const { file, imports } of files) {
    const from = roomOf(file);
    if (!from) continue;
    for (const target of imports) {
      const to = roomOf(target);
      if (to && to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  const cycles: string[][] = [];
  const visit = (room: string, trail: string[]): void => {
    for (const next of edges.get(room) ?? []) {
      const at = trail.indexOf(next);
      if (at >= 0) cycles.push([...trail.slice(at), next]);
      else visit(next, [...trail, next]);
    }
  };
  for (const room of edges.keys()) visit(room, [room]);
  return cycles;
}

describe('the dependency rule', () => {
  it('holds for every source file of services/, indexer/ and stack/', () => {
    const files = ['services', 'indexer', 'stack'].flatMap(sourceFiles).map((file) => ({ file, imports: localImports(file) }));
    expect(files.length).toBeGreaterThan(50);
    expect(violations(files)).toEqual([]);
  });

  it('leaves no cycle between the rooms of services/, type-only imports included', () => {
    const files = sourceFiles('services').map((file) => ({ file, imports: localImports(file) }));
    expect(roomCycles(files)).toEqual([]);
  });

  it('reports a room below the tools that imports a tool, and a cycle between two rooms', () => {
    const search = 'services/search/relax-buildings.ts';
    const found = violations([{ file: search, imports: localImports(search, "import type { A } from '../tools/properties-output';") }]);
    expect(found).toEqual([
      'services/search/relax-buildings.ts imports services/tools/properties-output: search/ sits below the tools: it imports no tool, transport or document',
    ]);
    const cycle = roomCycles([
      { file: 'services/deps.ts', imports: localImports('services/deps.ts', "import type { B } from './search/building-records';") },
      { file: 'services/search/location.ts', imports: localImports('services/search/location.ts', "import type { Deps } from '../deps';") },
    ]);
    expect(cycle[0]).toEqual(['deps', 'search', 'deps']);
  });

  it('finds every file of search/ in search/shared/ or in a family folder', () => {
    const loose = sourceFiles(SEARCH).filter((file) => !['shared', ...SEARCH_FAMILIES].some((dir) => inside(`${SEARCH}/${dir}`)(file)));
    expect(loose).toEqual([]);
  });

  it('reports a search family that imports another family, and search/shared/ that imports a family', () => {
    const buildings = 'services/search/buildings/building-cards.ts';
    const shared = 'services/search/shared/exact-search.ts';
    const found = violations([
      { file: buildings, imports: localImports(buildings, "import { haversineMiles } from '../apartments/result-shape';") },
      { file: shared, imports: localImports(shared, "import type { OverviewQuery } from '../overview/overview-query';") },
    ]);
    expect(found).toEqual([
      'services/search/buildings/building-cards.ts imports services/search/apartments/result-shape: search/buildings/ stands on search/shared/ alone: it imports no other search family',
      'services/search/shared/exact-search.ts imports services/search/overview/overview-query: search/shared/ (what the search families share) imports no search family',
    ]);
  });

  it('reports a kernel file that imports the service, and a service file that imports the indexer', () => {
    const kernel = 'services/kernel/engine/pricing.ts';
    const service = 'services/tools/get-quote.ts';
    const found = violations([
      { file: kernel, imports: localImports(kernel, "import { x } from '../../tools/registry';") },
      { file: service, imports: localImports(service, "import { y } from '../../indexer/runner';") },
    ]);
    expect(found).toEqual([
      'services/kernel/engine/pricing.ts imports services/tools/registry: the kernel imports nothing outside itself',
      'services/tools/get-quote.ts imports indexer/runner: services/ imports neither indexer/ nor stack/',
    ]);
  });

  it('lets only the worker entry point import the watch matching, and no indexer file the rest of the service', () => {
    const worker = 'indexer/worker.ts';
    const incremental = 'indexer/incremental.ts';
    const found = violations([
      { file: worker, imports: localImports(worker, "import { openWatchMatcher } from '../services/watch-matcher';") },
      { file: incremental, imports: localImports(incremental, "import { openWatchMatcher } from '../services/watch-matcher';") },
      { file: worker, imports: localImports(worker, "import { matchWatchesFor } from '../services/tools/watch-matching-run';") },
    ]);
    expect(found).toEqual([
      'indexer/incremental.ts imports services/watch-matcher: indexer/ imports only the kernel and mappings/ (and its entry point indexer/worker.ts the watch matching, services/watch-matcher)',
      'indexer/worker.ts imports services/tools/watch-matching-run: indexer/ imports only the kernel and mappings/ (and its entry point indexer/worker.ts the watch matching, services/watch-matcher)',
    ]);
  });
});
