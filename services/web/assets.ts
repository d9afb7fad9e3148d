/**
 * The search page's files, built once per process at first use like the widgets
 * (services/widgets/bundle.ts): esbuild bundles the browser code with Leaflet and its CSS, and the
 * offline basemap is the US states of us-atlas as GeoJSON. Nothing is fetched from elsewhere. The
 * drawing tools (Leaflet-Geoman, ~80 kB gzipped) are a script and stylesheet of their own, which the
 * page fetches only when a person first draws a shape.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bundleForBrowser } from '../kernel/browser-bundle';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { StaticFile } from '../transports/http/static-files';

const APP_DIR = path.join(__dirname, 'app');

/** Each file with its bytes, ETag, content hash and kept encodings (../transports/http/static-files.ts). */
export interface PageAssets {
  script: StaticFile;
  css: StaticFile;
  basemap: StaticFile;
  drawScript: StaticFile;
  drawCss: StaticFile;
}

const SCRIPT = 'application/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

// Leaflet's CSS names its control images; they travel inside the stylesheet.
const bundle = (entry: string): Promise<string> => bundleForBrowser(APP_DIR, entry, { '.png': 'dataurl', '.svg': 'dataurl' });

/** The states as one GeoJSON FeatureCollection (about 0.6 MB, drawn by Leaflet as the basemap). */
function basemapGeoJson(): string {
  const topology = JSON.parse(readFileSync(require.resolve('us-atlas/states-10m.json'), 'utf8')) as Topology<{ states: GeometryCollection }>;
  return JSON.stringify(feature(topology, topology.objects.states));
}

async function buildAll(): Promise<PageAssets> {
  const [script, css, drawScript, drawCss] = await Promise.all([bundle('main.ts'), bundle('page.css'), bundle('draw.ts'), bundle('draw.css')]);
  return {
    script: new StaticFile(script, SCRIPT),
    css: new StaticFile(css, CSS),
    basemap: new StaticFile(basemapGeoJson(), 'application/json'),
    drawScript: new StaticFile(drawScript, SCRIPT),
    drawCss: new StaticFile(drawCss, CSS),
  };
}

let assets: Promise<PageAssets> | undefined;

/** Built on first use and kept; a failed build is retried next time. */
export function pageAssets(): Promise<PageAssets> {
  assets ??= buildAll().catch((err: unknown) => {
    assets = undefined;
    throw err;
  });
  return assets;
}
