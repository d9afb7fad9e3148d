/**
 * The page's HTML shell: the layout the script fills, the map's tile settings (MAP_TILE_URL), and
 * the content-hashed names of its files (./routes.ts), the drawing tools' and the basemap's in
 * meta elements the script reads.
 */
import type { Config } from '../kernel/config';

/** Where the page finds its files. */
export interface PageHrefs {
  script: string;
  css: string;
  drawScript: string;
  drawCss: string;
  basemap: string;
}

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function pageHtml(config: Pick<Config, 'mapTileUrl' | 'mapTileAttribution'>, hrefs: PageHrefs): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="map-tile-url" content="${escapeAttr(config.mapTileUrl)}">
<meta name="map-tile-attribution" content="${escapeAttr(config.mapTileAttribution)}">
<meta name="draw-script" content="${escapeAttr(hrefs.drawScript)}">
<meta name="draw-css" content="${escapeAttr(hrefs.drawCss)}">
<meta name="basemap" content="${escapeAttr(hrefs.basemap)}">
<title>Furnished apartments: search and map</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${escapeAttr(hrefs.css)}">
<script src="${escapeAttr(hrefs.script)}" defer></script>
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header class="top">
  <a class="brand" href="/">Furnished apartments</a>
  <nav aria-label="Sections"><a href="?view=compare" data-nav="compare">Compare</a> <a href="?view=policies" data-nav="policies">Policies</a></nav>
</header>
<main id="content" tabindex="-1"><p class="loading">Loading…</p></main>
</body>
</html>
`;
}
