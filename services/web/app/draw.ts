/**
 * The entry of /app/draw.js: Leaflet-Geoman, fetched the first time a person draws a shape
 * (./shape-drawing.ts). It runs on the Leaflet the page's script put on `window.L`, and manages only
 * the layers that ask for it: the basemap's paths and the pins stay plain Leaflet.
 */
import type * as Leaflet from 'leaflet';
import '@geoman-io/leaflet-geoman-free';

(window as unknown as { L: typeof Leaflet }).L.PM.setOptIn(true);
