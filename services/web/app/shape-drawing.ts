/**
 * Drawing a shape on the map with Leaflet-Geoman (docs/decisions.md, "The search page"): a button
 * starts its polygon drawing (a click adds a corner, a click on the first corner closes the shape,
 * Escape or the button again cancels) and the closed ring is reported; another button clears the
 * shape. Geoman is its own script and stylesheet (/app/draw.<hash>.js and .css, named by the page), fetched the first
 * time a person draws; it runs on the Leaflet this page put on `window.L`.
 */
import type * as L from 'leaflet';
import type {} from '@geoman-io/leaflet-geoman-free';
import { h, meta } from './dom';
import { cleanRing, type Vertex } from './shape';

export const SHAPE_STYLE: L.PathOptions = { color: '#0b57d0', weight: 3, fillColor: '#0b57d0', fillOpacity: 0.08, interactive: false };

/** What of Geoman the page uses before a map has it: the class its own hook puts on each new map. */
interface Geoman {
  PM: { Map: new (map: L.Map) => L.PM.PMMap };
}

let loading: Promise<Geoman> | null = null;

/** Geoman's script and stylesheet, both loaded: a corner drawn before the styles has no size, and the first could not be clicked to close the shape. */
function loadGeoman(): Promise<Geoman> {
  loading ??= new Promise<Geoman>((resolve, reject) => {
    const css = h('link', { rel: 'stylesheet', href: meta('draw-css') || '/app/draw.css' });
    const script = h('script', { src: meta('draw-script') || '/app/draw.js' });
    let waiting = 2;
    const done = (): void => {
      if (--waiting === 0) resolve((window as unknown as { L: Geoman }).L);
    };
    const fail = (): void => {
      css.remove();
      script.remove();
      loading = null; // the next click tries again
      reject(new Error('The drawing tools could not be loaded; try again.'));
    };
    for (const el of [css, script]) {
      el.addEventListener('load', done);
      el.addEventListener('error', fail);
    }
    document.head.append(css, script);
  });
  return loading;
}

export interface ShapeDrawing {
  controls: HTMLElement;
  /** Shows the clear button while there is a shape. */
  hasShape(on: boolean): void;
  stop(): void;
}

export function shapeDrawing(map: L.Map, element: HTMLElement, onShape: (ring: Vertex[] | null) => void): ShapeDrawing {
  const hint = h('p', { class: 'draw-hint', id: 'draw-hint', role: 'status' });
  const draw = h('button', { type: 'button', class: 'secondary', id: 'draw-shape', 'aria-pressed': 'false', 'aria-describedby': 'draw-hint' }, 'Draw an area');
  const clear = h('button', { type: 'button', class: 'secondary', id: 'clear-shape', hidden: true }, 'Clear the area');
  let pm: L.PM.PMMap | null = null;
  const drawing = (on: boolean): void => {
    element.classList.toggle('drawing', on);
    draw.textContent = on ? 'Cancel drawing' : 'Draw an area';
    draw.setAttribute('aria-pressed', String(on));
    hint.textContent = on ? 'Click on the map to add corners, then click the first corner to close the shape. Escape cancels.' : '';
  };
  const start = async (): Promise<void> => {
    if (pm?.globalDrawModeEnabled()) return pm.disableDraw();
    try {
      const geoman = await loadGeoman();
      // The map was made before Geoman came: it gets what Geoman's own hook gives every new map.
      pm ??= map.pm = new geoman.PM.Map(map);
      pm.setGlobalOptions({ exitModeOnEscape: true });
    } catch (err) {
      hint.textContent = (err as Error).message;
      return;
    }
    pm.enableDraw('Polygon', { snappable: false, tooltips: false, allowSelfIntersection: false, continueDrawing: false, pathOptions: SHAPE_STYLE });
    drawing(true);
  };
  draw.addEventListener('click', () => void start());
  map.on('pm:drawend', () => drawing(false));
  map.on('pm:create', (e) => {
    // The page draws the state's shape itself: Geoman's layer goes, its ring becomes the search's polygon.
    const layer = e.layer as L.Polygon;
    const ring = cleanRing((layer.getLatLngs()[0] as L.LatLng[]).map((p) => [p.lat, p.lng] as Vertex));
    layer.remove();
    if (ring) onShape(ring);
    else hint.textContent = 'That shape has fewer than three corners; draw it again.';
  });
  clear.addEventListener('click', () => onShape(null));
  return {
    controls: h('div', { class: 'draw-bar' }, draw, clear, hint),
    hasShape: (on) => {
      clear.hidden = !on;
    },
    stop: () => pm?.disableDraw(),
  };
}
