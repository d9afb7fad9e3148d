/** The page's HTML shell: the layout the script fills, and the map's tile settings (MAP_TILE_URL). */
import type { Config } from '../kernel/config';

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function pageHtml(config: Pick<Config, 'mapTileUrl' | 'mapTileAttribution'>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="map-tile-url" content="${escapeAttr(config.mapTileUrl)}">
<meta name="map-tile-attribution" content="${escapeAttr(config.mapTileAttribution)}">
<title>Furnished apartments: search and map</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app/page.css">
<script src="/app/page.js" defer></script>
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
