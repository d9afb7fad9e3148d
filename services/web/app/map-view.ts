/**
 * The map beside the results: Leaflet over the offline US basemap the service serves (or the tiles
 * of MAP_TILE_URL), clusters and pins of a viewport answer. A pan or zoom by the person reports the
 * new area; moves the page makes itself (framing a market's pins, a resize) report nothing. A shape
 * the person draws (./shape-drawing.ts) is reported as its ring; the page draws the shape of its
 * state itself.
 */
import * as L from 'leaflet';
import { stayLabel } from '../../kernel/engine/stay-label';
import type { Cluster, MapAnswer, SearchHome } from './api';
import { h, meta, money, shortMoney } from './dom';
import type { Vertex } from './shape';
import { SHAPE_STYLE, shapeDrawing } from './shape-drawing';
import type { Area } from './state';

export interface MapView {
  /** The drawing buttons and their hint, placed by the page above the map. */
  controls: HTMLElement;
  /** Draws an answer; frames its pins and clusters when `frame` (a new market search). */
  show(answer: MapAnswer, frame: boolean): void;
  showArea(area: Area): void;
  /** Draws the state's shape (none: removes it); frames it when `frame` (a shape read from the URL). */
  showShape(ring: Vertex[] | null, frame: boolean): void;
  highlight(slug: string): void;
  destroy(): void;
}

export interface MapCallbacks {
  onArea(area: Area): void;
  onPin(slug: string): void;
  /** A shape drawn by the person (its ring, at most 100 vertices), or null when they clear it. */
  onShape(ring: Vertex[] | null): void;
  /** The apartment view, with the move-in of the home's best stay when flexible dates chose one. */
  homeHref(slug: string, moveIn?: string): string;
}

const CONTIGUOUS_US: L.LatLngBoundsExpression = [
  [24.5, -125],
  [49.5, -66.9],
];

function basemap(map: L.Map): void {
  const tiles = meta('map-tile-url');
  if (tiles) {
    L.tileLayer(tiles, { attribution: meta('map-tile-attribution'), maxZoom: 19 }).addTo(map);
    return;
  }
  // Offline: the US states (us-atlas) as served by the service, on a plain background.
  void fetch(meta('basemap') || '/app/us-states.json')
    .then((res) => res.json() as Promise<GeoJSON.FeatureCollection>)
    .then((states) => {
      L.geoJSON(states, { interactive: false, style: { color: '#7a8a99', weight: 1, fillColor: '#eef1ea', fillOpacity: 1 } }).addTo(map);
    });
}

const clusterPrice = (c: Cluster): string =>
  c.cheapest_display_price !== undefined
    ? `from ${money(c.cheapest_display_price)}`
    : c.cheapest_display_price_at_least !== undefined
      ? `${money(c.cheapest_display_price_at_least)} or more`
      : '';

/** The map's container: placed in the page before the map is made in it (Leaflet measures it). */
export const mapElement = (): HTMLElement =>
  h('div', { class: 'map', id: 'map', role: 'region', 'aria-label': 'Map of the results (arrow keys pan, + and - zoom)' });

export function createMapView(element: HTMLElement, { onArea, onPin, onShape, homeHref }: MapCallbacks): MapView {
  const map = L.map(element, { zoomSnap: 1, minZoom: 3, maxZoom: 18, worldCopyJump: false });
  map.attributionControl.setPrefix(false);
  map.fitBounds(CONTIGUOUS_US);
  basemap(map);
  const layer = L.layerGroup().addTo(map);
  const shapeLayer = L.layerGroup().addTo(map);
  const draw = shapeDrawing(map, element, onShape);
  const pins = new Map<string, L.Marker>();
  // Moves made by the page (fitBounds, setView) are not the person's: they ask for no new search.
  let ownMove = false;
  const move = (fn: () => void): void => {
    ownMove = true;
    try {
      fn();
    } finally {
      ownMove = false;
    }
  };
  // Only a move that follows the person's input on the map counts: Leaflet also moves the map when its
  // container is resized (a scrollbar appearing), and that is nobody's new search.
  let lastInput = -Infinity;
  for (const type of ['pointerdown', 'wheel', 'keydown', 'touchstart']) {
    element.addEventListener(type, () => (lastInput = performance.now()), { capture: true, passive: true });
  }
  // The person's moves (a drag, the wheel, the keys, a cluster's zoom) begin with Leaflet's movestart; the
  // pan Leaflet makes when its container is resized fires only move and a moveend 200 ms later, so a
  // scrollbar appearing just after a click on the map is not taken for a move.
  let personMoving = false;
  map.on('movestart', () => {
    if (!ownMove && performance.now() - lastInput <= 2_000) personMoving = true;
  });
  let timer: number | undefined;
  map.on('moveend', () => {
    if (ownMove || !personMoving) return;
    personMoving = false;
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      const b = map.getBounds();
      onArea({ swLatitude: b.getSouth(), swLongitude: b.getWest(), neLatitude: b.getNorth(), neLongitude: b.getEast(), zoom: map.getZoom() });
    }, 250);
  });

  function pin(home: SearchHome): L.Marker {
    const label = shortMoney(home.display_price_with_discount);
    const icon = L.divIcon({ className: 'pin', html: `<span>${label}</span>`, iconSize: undefined });
    const marker = L.marker([home.latitude, home.longitude], {
      icon,
      keyboard: true,
      title: `${home.name}, ${money(home.display_price_with_discount)} ${home.display_price_label}`,
      alt: home.name,
    });
    const link = h('a', { href: homeHref(home.slug, home.stay?.start_date) }, 'View apartment');
    marker.bindPopup(
      h(
        'div',
        { class: 'popup' },
        h('strong', {}, home.name),
        h('br'),
        `${money(home.display_price_with_discount)} ${home.display_price_label}`,
        h('br'),
        home.stay ? stayLabel(home.stay) : null,
        home.stay ? h('br') : null,
        link,
      ),
    );
    marker.on('click', () => onPin(home.slug));
    marker.on('add', () => marker.getElement()?.setAttribute('data-slug', home.slug));
    return marker;
  }

  function cluster(c: Cluster): L.Marker {
    const size = Math.round(28 + Math.min(36, Math.sqrt(c.count) * 2));
    const icon = L.divIcon({ className: 'cluster', html: `<span>${c.count}</span>`, iconSize: [size, size] });
    const marker = L.marker([c.latitude, c.longitude], {
      icon,
      keyboard: true,
      title: `${c.count} apartments ${clusterPrice(c)}; zoom in`,
      alt: `${c.count} apartments`,
    });
    // Zooming into a cluster is the person's move: it asks the viewport search for that area.
    marker.on('click', () =>
      map.fitBounds([
        [c.bounds.south, c.bounds.west],
        [c.bounds.north, c.bounds.east],
      ]),
    );
    marker.on('add', () => marker.getElement()?.setAttribute('data-tile', c.tile));
    return marker;
  }

  return {
    controls: draw.controls,
    show(answer, frame) {
      layer.clearLayers();
      pins.clear();
      const points: L.LatLngExpression[] = [];
      if (answer.clusters?.length) {
        for (const c of answer.clusters) {
          cluster(c).addTo(layer);
          points.push([c.bounds.south, c.bounds.west], [c.bounds.north, c.bounds.east]);
        }
      } else {
        for (const home of answer.homes) {
          const marker = pin(home).addTo(layer);
          pins.set(home.slug, marker);
          points.push([home.latitude, home.longitude]);
        }
      }
      if (frame && points.length) move(() => map.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 14, animate: false }));
    },
    showArea(area) {
      move(() =>
        map.setView(L.latLngBounds([area.swLatitude, area.swLongitude], [area.neLatitude, area.neLongitude]).getCenter(), area.zoom, { animate: false }),
      );
    },
    showShape(ring, frame) {
      shapeLayer.clearLayers();
      draw.hasShape(ring !== null);
      if (!ring) return;
      const polygon = L.polygon(
        ring.map(([lat, lon]) => [lat, lon] as L.LatLngTuple),
        SHAPE_STYLE,
      ).addTo(shapeLayer);
      polygon.getElement()?.setAttribute('data-testid', 'search-shape');
      if (frame) move(() => map.fitBounds(polygon.getBounds(), { padding: [24, 24], maxZoom: 14, animate: false }));
    },
    highlight(slug) {
      for (const [s, marker] of pins) marker.getElement()?.classList.toggle('selected', s === slug);
    },
    destroy() {
      window.clearTimeout(timer);
      draw.stop();
      map.remove();
    },
  };
}
