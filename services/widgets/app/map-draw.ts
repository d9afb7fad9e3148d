/**
 * The map's drawing: the US basemap from us-atlas (states at 1:10m) with d3-geo, all bundled in (no
 * tile server, no network), one pin per home or one marker per cluster, city labels and an inset.
 */
import { geoAlbersUsa, geoCircle, geoPath, type GeoProjection } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import statesAtlas from 'us-atlas/states-10m.json';
import { el, onActivate, svg } from './dom';
import { HEIGHT, MILES_PER_DEGREE, WIDTH } from './map-frame';
import { clusterPrice, formatPrice, type MapCluster, type MapResult, type SearchHome } from './results';

const PIN_RADIUS = 6;
const CLUSTER_MIN_RADIUS = 11;
const CLUSTER_MAX_RADIUS = 26;

const atlas = statesAtlas as unknown as Topology<{ states: GeometryCollection; nation: GeometryCollection }>;
const land = feature(atlas, atlas.objects.nation);
const stateBorders = mesh(atlas, atlas.objects.states, (a, b) => a !== b);

type Point = [number, number];

export interface MapStatus {
  show(home: SearchHome): void;
  cluster(c: MapCluster): void;
}

/** Whether a point is on the map drawn: a move searches a little beyond its view (./map-frame.ts viewportArgs). */
const inView = ([x, y]: Point): boolean => x >= 0 && x <= WIDTH && y >= 0 && y <= HEIGHT;

/** A marker off the map: drawn (clipped) but out of the tab order and of what a screen reader reads. */
const OFF_VIEW = { 'aria-hidden': 'true' } as const;

/** Screen points of the pins; homes of one building are spread on a small ring so each stays clickable. */
function pinPositions(homes: SearchHome[], projection: GeoProjection): Point[] {
  const at = homes.map((h): Point => projection([h.longitude, h.latitude]) ?? [-100, -100]);
  const groups = new Map<string, number[]>();
  at.forEach(([x, y], i) => {
    const key = `${Math.round(x)},${Math.round(y)}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const ring = PIN_RADIUS * 1.4 + members.length * 1.6;
    members.forEach((index, k) => {
      const angle = (2 * Math.PI * k) / members.length;
      const [x, y] = at[index];
      at[index] = [x + ring * Math.cos(angle), y + ring * Math.sin(angle)];
    });
  }
  return at;
}

/** Each display city's name beside its homes. */
function cityLabels(homes: SearchHome[], projection: GeoProjection): SVGGElement {
  const labels = svg('g', { class: 'city-labels', 'aria-hidden': 'true' });
  const byCity = new Map<string, SearchHome[]>();
  for (const h of homes) byCity.set(h.city, [...(byCity.get(h.city) ?? []), h]);
  for (const [city, members] of byCity) {
    const lon = members.reduce((s, h) => s + h.longitude, 0) / members.length;
    const lat = Math.max(...members.map((h) => h.latitude));
    const at = projection([lon, lat]);
    if (!at) continue;
    const label = svg('text', { x: at[0].toFixed(1), y: (at[1] - PIN_RADIUS * 1.4 - members.length * 1.6 - 12).toFixed(1) });
    label.textContent = city;
    labels.append(label);
  }
  return labels;
}

/** A small US outline in the corner with a dot where the map is. */
function inset(homes: SearchHome[]): SVGSVGElement {
  const box = svg('svg', { class: 'inset', viewBox: '0 0 160 100', 'aria-hidden': 'true' });
  const projection = geoAlbersUsa().fitExtent(
    [
      [4, 4],
      [156, 96],
    ],
    land,
  );
  box.append(svg('path', { class: 'land', d: geoPath(projection)(land) ?? '' }));
  const lon = homes.reduce((s, h) => s + h.longitude, 0) / homes.length;
  const lat = homes.reduce((s, h) => s + h.latitude, 0) / homes.length;
  const spot = projection([lon, lat]);
  if (spot) box.append(svg('circle', { class: 'here', cx: spot[0], cy: spot[1], r: 4 }));
  return box;
}

/**
 * One marker per cluster, sized by its count and labelled with it: when more homes match a viewport
 * than the 250 pins, the clusters show where all of them are.
 */
function clusterMarkers(clusters: MapCluster[], projection: GeoProjection, status: MapStatus): SVGGElement {
  const group = svg('g', { class: 'clusters' });
  const largest = Math.max(...clusters.map((c) => c.count));
  for (const c of clusters) {
    const at = projection([c.longitude, c.latitude]);
    if (!at) continue;
    const r = CLUSTER_MIN_RADIUS + (CLUSTER_MAX_RADIUS - CLUSTER_MIN_RADIUS) * Math.sqrt(c.count / largest);
    const marker = svg('g', {
      class: 'cluster',
      'data-count': c.count,
      'data-tile': c.tile,
      ...(inView(at) ? { tabindex: 0, role: 'button', 'aria-label': `${c.count} apartments` } : OFF_VIEW),
    });
    marker.append(svg('circle', { cx: at[0].toFixed(1), cy: at[1].toFixed(1), r: r.toFixed(1) }));
    const label = svg('text', { x: at[0].toFixed(1), y: (at[1] + 4).toFixed(1) });
    label.textContent = String(c.count);
    const title = svg('title');
    title.textContent = `${c.count} apartments ${clusterPrice(c)}`.trim();
    marker.append(label, title);
    onActivate(marker, () => status.cluster(c));
    group.append(marker);
  }
  return group;
}

/** The map of a result as `projection` frames it: the drawing and the element around it (with the inset). */
export function drawMap(result: MapResult, projection: GeoProjection, status: MapStatus): { frame: HTMLElement; map: SVGSVGElement } {
  const homes = result.homes;
  const path = geoPath(projection);
  const onMap = homes.filter((h) => {
    const at = projection([h.longitude, h.latitude]);
    return at !== null && inView(at);
  }).length;
  const map = svg('svg', { class: 'map', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'group', 'aria-label': `Map of ${onMap} apartments` });
  map.append(svg('rect', { class: 'water', width: WIDTH, height: HEIGHT }));
  map.append(svg('path', { class: 'land', d: path(land) ?? '' }));
  map.append(svg('path', { class: 'borders', d: path(stateBorders) ?? '' }));
  if (result.near) {
    const circle = geoCircle()
      .center([result.near.longitude, result.near.latitude])
      .radius(result.near.radius_miles / MILES_PER_DEGREE)();
    map.append(svg('path', { class: 'near', d: path(circle) ?? '' }));
  }
  if (result.clusters && result.clusters.length > 0) {
    // Clusters stand for every match; the pins (the first 250) would hide them.
    map.append(clusterMarkers(result.clusters, projection, status));
    return { frame: el('div', { class: 'map-frame' }, map, homes.length ? inset(homes) : null), map };
  }
  const pins = svg('g', { class: 'pins' });
  pinPositions(homes, projection).forEach(([x, y], i) => {
    const home = homes[i];
    const pin = svg('circle', {
      class: 'pin',
      cx: x.toFixed(1),
      cy: y.toFixed(1),
      r: PIN_RADIUS,
      'data-slug': home.slug,
      ...(inView([x, y]) ? { tabindex: 0, role: 'button', 'aria-label': home.name } : OFF_VIEW),
    });
    const title = svg('title');
    title.textContent = `${home.name} · ${formatPrice(home)}`;
    pin.append(title);
    onActivate(pin, () => {
      for (const other of pins.querySelectorAll('.pin.selected')) other.classList.remove('selected');
      pin.classList.add('selected');
      pins.append(pin); // drawn last, so on top
      status.show(home);
    });
    pins.append(pin);
  });
  map.append(pins, cityLabels(homes, projection));
  return { frame: el('div', { class: 'map-frame' }, map, homes.length ? inset(homes) : null), map };
}
