/**
 * esbuild's bundle of one browser entry point (a widget's script, the search page's script or
 * stylesheet): minified, an IIFE for scripts, nothing written to disk. Built once per process by
 * its callers (services/widgets/bundle.ts, services/web/assets.ts), or read from the bundle cache
 * when one is set and the bundle's inputs are unchanged (./bundle-cache.ts).
 *
 * esbuild builds in a child process it keeps for the next build; the bundles are built once, so
 * the child is stopped when no build is under way (a later build starts one again) rather than
 * idle beside the service for its whole life.
 */
import path from 'node:path';
import { build, stop, version, type BuildOptions, type Loader, type Plugin } from 'esbuild';
import { cachedBundle } from './bundle-cache';

let building = 0;
let cacheDir: string | null = null;

/** Where bundles are kept between processes (BROWSER_BUNDLE_CACHE), or null: every process builds its own. */
export function keepBundlesIn(dir: string | null): void {
  cacheDir = dir;
}

/** One esbuild run's first output and the files it read; also the document pool's thread from the sources (indexer/document-pool.ts). */
export async function bundleWithEsbuild(options: BuildOptions): Promise<{ output: string; inputs: string[] }> {
  building += 1;
  try {
    const out = await build({ ...options, metafile: true });
    const cwd = options.absWorkingDir ?? process.cwd();
    // Inputs of a plugin's own namespace ("left-out:zod-locales") are no files: the plugin's code, in the cache key, makes them.
    const inputs = Object.keys(out.metafile.inputs)
      .filter((input) => !/^[\w-]+:/.test(input))
      .map((input) => path.resolve(cwd, input));
    return { output: out.outputFiles![0].text, inputs };
  } finally {
    building -= 1;
    if (building === 0) await stop();
  }
}

export async function bundleForBrowser(appDir: string, entry: string, loader: Record<string, Loader> = {}, plugins: Plugin[] = []): Promise<string> {
  const options: BuildOptions = {
    entryPoints: [path.join(appDir, entry)],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    loader,
    plugins,
    outdir: 'out',
    tsconfig: path.join(appDir, 'tsconfig.json'),
    logLevel: 'silent',
  };
  if (cacheDir === null) return (await bundleWithEsbuild(options)).output;
  // Everything the output depends on but the files: esbuild's version, the options, the plugins' code,
  // and the working directory (module paths relative to it are kept in the output).
  const key = { version, cwd: process.cwd(), options: { ...options, plugins: plugins.map((p) => [p.name, String(p.setup)]) } };
  return cachedBundle(cacheDir, key, () => bundleWithEsbuild(options));
}
