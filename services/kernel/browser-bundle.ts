/**
 * esbuild's bundle of one browser entry point (a widget's script, the search page's script or
 * stylesheet): minified, an IIFE for scripts, nothing written to disk. Built once per process by
 * its callers (services/widgets/bundle.ts, services/web/assets.ts).
 */
import path from 'node:path';
import { build, type Loader, type Plugin } from 'esbuild';

export async function bundleForBrowser(appDir: string, entry: string, loader: Record<string, Loader> = {}, plugins: Plugin[] = []): Promise<string> {
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
}
