/**
 * The map widget of search_apartments_on_map: one pin per home over a US basemap drawn from
 * us-atlas (states at 1:10m) with d3-geo, all bundled in; no tile server, no network. When the
 * server switches the map off (map_view.enabled false) it says so with the reason and lists the homes.
 */
import { geoAlbersUsa, geoCircle, geoMercator, geoPath, type GeoProjection } from 'd3-geo';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import statesAtlas from 'us-atlas/states-10m.json';
import { connectHost, type ToolResultPayload } from './bridge';
import { el, mount, onActivate, svg } from './dom';
import { askAbout, clusterPrice, formatPrice, homeFacts, placeName, readHomes, type MapCluster, type MapResult, type SearchHome } from './results';

const WIDTH = 720;
const HEIGHT = 440;
const PIN_RADIUS = 6;
const CLUSTER_MIN_RADIUS = 11;
const CLUSTER_MAX_RADIUS = 26;
/**
 * Smallest span shown, in degrees: the basemap is at 1:10,000,000, so the map frames a region (coast,
 * state lines) rather than streets it does not have.
 */
const MIN_SPAN_DEGREES = 1.2;
const MILES_PER_DEGREE = 69.09;

const atlas = statesAtlas as unknown as Topology<{ states: GeometryCollection; nation: GeometryCollection }>;
const land = feature(atlas, atlas.objects.nation);
const stateBorders = mesh(atlas, atlas.objects.states, (a, b) => a !== b);

// Shown until the host delivers the result (ChatGPT's globals may already hold it: connectHost renders at once).
mount(el('p', { class: 'notice' }, 'Waiting for the search result…'));
const bridge = connectHost('furnished-catalog-map', render);

type Point = [number, number];

/** A Mercator projection framing the pins (and the searched circle, or the viewport searched) with a margin. */
function frame(homes: SearchHome[], near: MapResult['near'], viewport?: MapResult['viewport']): GeoProjection {
  const lons = homes.map((h) => h.longitude);
  const lats = homes.map((h) => h.latitude);
  if (viewport) {
    lons.push(viewport.sw_longitude, viewport.ne_longitude);
    lats.push(viewport.sw_latitude, viewport.ne_latitude);
  }
  if (near) {
    const dLat = near.radius_miles / MILES_PER_DEGREE;
    const dLon = dLat / Math.cos((near.latitude * Math.PI) / 180);
    lons.push(near.longitude - dLon, near.longitude + dLon);
    lats.push(near.latitude - dLat, near.latitude + dLat);
  }
  const span = (values: number[]): Point => {
    const lo = Math.min(...values);
    const hi = Math.max(...values);
    const pad = Math.max(0, MIN_SPAN_DEGREES - (hi - lo)) / 2;
    return [lo - pad, hi + pad];
  };
  const [west, east] = span(lons);
  const [south, north] = span(lats);
  return geoMercator()
    .fitExtent([[28, 28], [WIDTH - 28, HEIGHT - 28]], { type: 'MultiPoint', coordinates: [[west, south], [east, north]] })
    .clipExtent([[0, 0], [WIDTH, HEIGHT]]);
}

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
  const projection = geoAlbersUsa().fitExtent([[4, 4], [156, 96]], land);
  box.append(svg('path', { class: 'land', d: geoPath(projection)(land) ?? '' }));
  const lon = homes.reduce((s, h) => s + h.longitude, 0) / homes.length;
  const lat = homes.reduce((s, h) => s + h.latitude, 0) / homes.length;
  const spot = projection([lon, lat]);
  if (spot) box.append(svg('circle', { class: 'here', cx: spot[0], cy: spot[1], r: 4 }));
  return box;
}

function clusterDetail(c: MapCluster): HTMLElement {
  return el('div', { class: 'detail status', role: 'status', 'data-testid': 'selection' }, el('strong', {}, `${c.count} apartments here`), ` ${clusterPrice(c)}`.trimEnd());
}

function detail(home: SearchHome | null, clustered = false): HTMLElement {
  const box = el('div', { class: 'detail status', role: 'status', 'data-testid': 'selection' });
  if (!home) box.append(clustered ? 'Click a cluster to see how many apartments it holds and their lowest price.' : 'Click a pin to ask about that apartment.');
  else box.append(el('strong', {}, home.name), ` · ${home.slug}`, el('br'), `${homeFacts(home)} · ${formatPrice(home)} ${home.display_price_label}`);
  return box;
}

/**
 * One marker per cluster, sized by its count and labelled with it: when more homes match a viewport
 * than the 250 pins, the clusters show where all of them are.
 */
function clusterMarkers(clusters: MapCluster[], projection: GeoProjection, status: { cluster(c: MapCluster): void }): SVGGElement {
  const group = svg('g', { class: 'clusters' });
  const largest = Math.max(...clusters.map((c) => c.count));
  for (const c of clusters) {
    const at = projection([c.longitude, c.latitude]);
    if (!at) continue;
    const r = CLUSTER_MIN_RADIUS + (CLUSTER_MAX_RADIUS - CLUSTER_MIN_RADIUS) * Math.sqrt(c.count / largest);
    const marker = svg('g', { class: 'cluster', tabindex: 0, role: 'button', 'data-count': c.count, 'data-tile': c.tile, 'aria-label': `${c.count} apartments` });
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

function drawMap(result: MapResult, status: { show(home: SearchHome): void; cluster(c: MapCluster): void }): HTMLElement {
  const homes = result.homes;
  const projection = frame(homes, result.near, result.viewport);
  const path = geoPath(projection);
  const map = svg('svg', { class: 'map', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': `Map of ${homes.length} apartments` });
  map.append(svg('rect', { class: 'water', width: WIDTH, height: HEIGHT }));
  map.append(svg('path', { class: 'land', d: path(land) ?? '' }));
  map.append(svg('path', { class: 'borders', d: path(stateBorders) ?? '' }));
  if (result.near) {
    const circle = geoCircle().center([result.near.longitude, result.near.latitude]).radius(result.near.radius_miles / MILES_PER_DEGREE)();
    map.append(svg('path', { class: 'near', d: path(circle) ?? '' }));
  }
  if (result.clusters && result.clusters.length > 0) {
    // Clusters stand for every match; the pins (the first 250) would hide them.
    map.append(clusterMarkers(result.clusters, projection, status));
    return el('div', { class: 'map-frame' }, map, homes.length ? inset(homes) : null);
  }
  const pins = svg('g', { class: 'pins' });
  pinPositions(homes, projection).forEach(([x, y], i) => {
    const home = homes[i];
    const pin = svg('circle', { class: 'pin', cx: x.toFixed(1), cy: y.toFixed(1), r: PIN_RADIUS, tabindex: 0, role: 'button', 'data-slug': home.slug, 'aria-label': home.name });
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
  return el('div', { class: 'map-frame' }, map, homes.length ? inset(homes) : null);
}

function homeList(homes: SearchHome[], status: { show(home: SearchHome): void }): HTMLElement {
  return el(
    'ul',
    { class: 'home-list' },
    ...homes.map((home) => {
      const item = el('li', { role: 'button', tabindex: '0', 'data-slug': home.slug }, el('strong', {}, home.name), ` · ${homeFacts(home)} · ${formatPrice(home)}`);
      onActivate(item, () => status.show(home));
      return item;
    }),
  );
}

function render(payload: ToolResultPayload): void {
  const result = readHomes<MapResult>(payload);
  if (!result) {
    mount(el('p', { class: 'notice error' }, 'This result has no apartments to show.'));
    return;
  }
  let box = detail(null, (result.clusters?.length ?? 0) > 0 && result.map_view.enabled);
  const status = {
    show(home: SearchHome): void {
      const next = detail(home);
      box.replaceWith(next);
      box = next;
      bridge.sendMessage(askAbout(home));
    },
    cluster(c: MapCluster): void {
      const next = clusterDetail(c);
      box.replaceWith(next);
      box = next;
    },
  };
  const clustered = (result.clusters?.length ?? 0) > 0;
  const more = clustered
    ? `${result.total_count} matches in ${result.clusters!.length} clusters`
    : `${result.count} on the map${result.total_count > result.count ? ` (the first ${result.count} of ${result.total_count} matches)` : ''}`;
  const heading = el(
    'header',
    {},
    el('h2', {}, `Apartments in ${placeName(result)}${result.near?.label ? ` near ${result.near.label}` : ''}`),
    el('p', { class: 'summary' }, more),
  );
  if (!result.map_view.enabled) {
    const off = el(
      'section',
      { class: 'map-unavailable', 'data-testid': 'map-unavailable' },
      el('h3', {}, 'Map unavailable'),
      el('p', {}, result.map_view.reason ?? 'The map view is switched off.'),
    );
    mount(heading, off, homeList(result.homes, status), box);
    return;
  }
  const body = result.homes.length ? drawMap(result, status) : el('p', { class: 'notice' }, 'No apartment matches this search.');
  mount(heading, body, box);
}
