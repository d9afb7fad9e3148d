/**
 * esbuild's bundle of one browser entry point (a widget's script, the search page's script or
 * stylesheet): minified, an IIFE for scripts, nothing written to disk. Built once per process by
 * its callers (services/widgets/bundle.ts, services/web/assets.ts).
 *
 * esbuild builds in a child process it keeps for the next build; the bundles are built once, so
 * the child is stopped when no build is under way (a later build starts one again) rather than
 * idle beside the service for its whole life.
 */
import path from 'node:path';
import { build, stop, type Loader, type Plugin } from 'esbuild';

let building = 0;

export async function bundleForBrowser(appDir: string, entry: string, loader: Record<string, Loader> = {}, plugins: Plugin[] = []): Promise<string> {
  building += 1;
  try {
    const out = await build({
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
    });
    return out.outputFiles[0].text;
  } finally {
    building -= 1;
    if (building === 0) await stop();
  }
}
