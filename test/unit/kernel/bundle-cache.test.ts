/**
 * The browser bundle cache (services/kernel/bundle-cache.ts) with real esbuild builds of a small app in
 * a temporary directory: an unchanged app is read from the cache, and any change that can change the
 * bundle (an input's text, a file that an import would now resolve to, a package's manifest) builds it
 * again.
 */
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleForBrowser, keepBundlesIn } from '../../../services/kernel/browser-bundle';
import { cachedBundle } from '../../../services/kernel/bundle-cache';

let root: string;
let app: string;
let cache: string;

/**
 * Every file and directory under `dir` dated a minute back. The cache keeps no entry when an input or
 * its directory changed during (or just before) the build; the test's own writes are older than that.
 */
function age(dir = root): void {
  const past = new Date(Date.now() - 60_000);
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) age(p);
    else utimesSync(p, past, past);
  }
  utimesSync(dir, past, past);
}

/** Writes a file of the app, dated a minute back as the rest. */
const write = (file: string, text: string): void => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
  age();
};

/** The one entry in the cache, its output replaced by a marker, so that reading the marker back proves a hit. */
function markEntry(marker: string): void {
  const [name] = readdirSync(cache).filter((f) => f.endsWith('.json'));
  const file = path.join(cache, name);
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), output: marker }));
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'bundle-cache-'));
  app = path.join(root, 'app');
  cache = path.join(root, 'node_modules', '.cache', 'bundles');
  write('app/tsconfig.json', '{}');
  write('app/main.ts', "import { word } from './dep';\nimport { other } from 'pkg';\n(globalThis as any).said = word + other;\n");
  write('app/dep.ts', "export const word = 'alpha';\n");
  write('node_modules/pkg/package.json', '{ "name": "pkg", "main": "a.js" }');
  write('node_modules/pkg/a.js', "exports.other = 'from-a';\n");
  write('node_modules/pkg/b.js', "exports.other = 'from-b';\n");
  mkdirSync(cache, { recursive: true });
  age();
  keepBundlesIn(cache);
});

afterEach(() => {
  keepBundlesIn(null);
  rmSync(root, { recursive: true, force: true });
});

describe('the browser bundle cache', () => {
  it('reads an unchanged bundle from the cache and builds again when an input changes', async () => {
    expect(await bundleForBrowser(app, 'main.ts')).toContain('alpha');
    markEntry('kept');
    expect(await bundleForBrowser(app, 'main.ts')).toBe('kept');
    write('app/dep.ts', "export const word = 'beta';\n");
    expect(await bundleForBrowser(app, 'main.ts')).toContain('beta');
  });

  it('builds again when a new file is what an import resolves to, or a package names another main file', async () => {
    expect(await bundleForBrowser(app, 'main.ts')).toContain('from-a');
    markEntry('kept');
    // esbuild tries .tsx before .ts: `./dep` now means the new file, though no input changed.
    write('app/dep.tsx', "export const word = 'gamma';\n");
    expect(await bundleForBrowser(app, 'main.ts')).toContain('gamma');
    markEntry('kept');
    expect(await bundleForBrowser(app, 'main.ts')).toBe('kept');
    write('node_modules/pkg/package.json', '{ "name": "pkg", "main": "b.js" }');
    expect(await bundleForBrowser(app, 'main.ts')).toContain('from-b');
  });

  it('keeps a bundle apart from one built with other options', async () => {
    expect(await bundleForBrowser(app, 'main.ts')).toContain('alpha');
    markEntry('kept');
    expect(await bundleForBrowser(app, 'main.ts', { '.png': 'dataurl' })).toContain('alpha');
  });

  it('keeps no entry when an input changes while its bundle is built, and processes building at once leave a whole one', async () => {
    const input = path.join(app, 'dep.ts');
    const out = await cachedBundle(cache, 'k', async () => {
      writeFileSync(input, "export const word = 'changed';\n");
      return { output: 'old text', inputs: [input] };
    });
    expect(out).toBe('old text');
    expect(readdirSync(cache)).toEqual([]);

    age();
    let builds = 0;
    const build = async () => ((builds += 1), { output: `built ${builds}`, inputs: [input] });
    const outputs = await Promise.all([1, 2, 3, 4].map(() => cachedBundle(cache, 'k', build)));
    expect(outputs.every((o) => /^built \d$/.test(o))).toBe(true);
    expect(readdirSync(cache)).toHaveLength(1);
    expect(await cachedBundle(cache, 'k', build)).toMatch(/^built \d$/);
    expect(builds).toBe(4);
  });
});
