/**
 * Builds each widget's HTML document once per process, at service start: esbuild bundles the
 * browser code with the MCP Apps SDK, d3-geo, topojson-client and the us-atlas basemap from
 * node_modules, and the script and stylesheet are inlined, so the document loads nothing
 * (docs/decisions.md, "The widgets").
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'esbuild';
import { bundleForBrowser } from '../kernel/browser-bundle';
import { WIDGETS, type WidgetDefinition } from './catalog';

const APP_DIR = path.join(__dirname, 'app');

/**
 * zod's translations of its error messages (~260 kB minified), left out: the SDK uses zod's namespace
 * in a way esbuild cannot trim, which keeps them all, yet only English is ever used (zod sets it as it loads). Should
 * zod move the file, the filter stops matching and the bundle is merely bigger.
 */
const ZOD_LOCALES_LEFT_OUT: Plugin = {
  name: 'zod-locales-left-out',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'left-out' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'left-out' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

async function bundleScript(entry: string): Promise<string> {
  // Inline <script>: a literal "</script" inside the code would end it early.
  return (await bundleForBrowser(APP_DIR, entry, {}, [ZOD_LOCALES_LEFT_OUT])).replace(/<\/script/gi, '<\\/script');
}

export async function widgetDocument(widget: WidgetDefinition, css: string): Promise<string> {
  const script = await bundleScript(widget.entry);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${widget.title}</title><style>${css}</style></head>`,
    `<body><main id="root"></main><script>${script}</script></body>`,
    '</html>',
  ].join('\n');
}

let documents: Promise<ReadonlyMap<string, string>> | undefined;

async function buildAll(): Promise<ReadonlyMap<string, string>> {
  const css = await readFile(path.join(APP_DIR, 'widget.css'), 'utf8');
  const built = await Promise.all(WIDGETS.map(async (w) => [w.uri, await widgetDocument(w, css)] as const));
  return new Map(built);
}

/** The HTML of every widget by URI, built on first use and kept; a failed build is retried next time. */
export function widgetDocuments(): Promise<ReadonlyMap<string, string>> {
  documents ??= buildAll().catch((err: unknown) => {
    documents = undefined;
    throw err;
  });
  return documents;
}
