/**
 * The map widget of search_apartments_on_map: one pin per home (or one marker per cluster) over a US
 * basemap drawn offline (./map-draw.ts). Where the host proxies tool calls, a drag, the arrow keys
 * or the zoom buttons search the new view through search_map_viewport (no model turn); where it
 * offers fullscreen, a button asks for it. When the server switches the map off (map_view.enabled
 * false) it says so with the reason and lists the homes. The counts a result carries (facets) are
 * listed under the map; the widget's own searches ask for them.
 */
import type { McpUiDisplayMode } from '@modelcontextprotocol/ext-apps';
import { el, mount } from './dom';
import { connectHost, type ToolArguments, type ToolResultPayload } from './host';
import { mapControls, type ScreenOptions } from './map-controls';
import { drawMap, type MapStatus } from './map-draw';
import { facetList, readFacets } from './map-facets';
import { frame, viewportArgs, type Bounds } from './map-frame';
import { clusterDetail, detail, homeList, notice } from './map-status';
import { askAbout, placeName, readHomes, type MapResult } from './results';

/** The map's own search (app-only: hosts do not show it to the model). */
export const VIEWPORT_TOOL = 'search_map_viewport';
/** The arguments that say where to search: a move replaces them with its viewport; the filters stay. */
const PLACE_ARGS = new Set([
  'market',
  'scope',
  'near_latitude',
  'near_longitude',
  'near_radius_miles',
  'near_label',
  'sw_latitude',
  'sw_longitude',
  'ne_latitude',
  'ne_longitude',
  'zoom',
]);

let input: ToolArguments = {};
let shown: MapResult | null = null;
/** The view a move showed: its search asked a wider viewport (on the grid), the map keeps to the view. */
let shownView: Bounds | null = null;
let mode: McpUiDisplayMode = 'inline';
let modes: readonly McpUiDisplayMode[] = [];
let moves = 0;
let setStatus: (node: HTMLElement) => void = () => undefined;

// Shown until the host delivers the result.
mount(el('p', { class: 'notice' }, 'Waiting for the search result…'));
const host = connectHost(
  'furnished-catalog-map',
  {
    onResult: (payload) => show(payload),
    onInput: (args) => {
      input = args;
    },
    onDisplayMode: (next, available) => {
      const changed = next !== mode || available.length !== modes.length;
      [mode, modes] = [next, available];
      if (changed && shown) render(shown, shownView);
    },
  },
  ['inline', 'fullscreen'],
);

/** Searches the view a move asks for; the answer to the latest move is the one drawn. */
async function searchView(bounds: Bounds): Promise<void> {
  const move = ++moves;
  setStatus(notice('Searching this area…'));
  const filters = Object.fromEntries(Object.entries(input).filter(([name]) => !PLACE_ARGS.has(name)));
  try {
    // Facets count one stay's prices: a window of move-in dates (latest_start_date) has none (docs/decisions.md).
    const facets = filters.latest_start_date === undefined ? { facets: true } : {};
    const payload = await host.callTool(VIEWPORT_TOOL, { ...filters, ...viewportArgs(bounds), ...facets });
    if (move === moves) show(payload, bounds);
  } catch {
    if (move === moves) setStatus(notice('This area could not be searched; try again.'));
  }
}

/** The rectangle the map frames edge to edge: the view moved to, else the viewport the result searched, if any. */
function viewOf(result: MapResult, view: Bounds | null): Bounds | undefined {
  if (view) return view;
  const v = result.viewport;
  return v && { south: v.sw_latitude, west: v.sw_longitude, north: v.ne_latitude, east: v.ne_longitude };
}

async function toggleScreen(): Promise<void> {
  mode = await host.requestDisplayMode(mode === 'fullscreen' ? 'inline' : 'fullscreen').catch(() => mode);
  document.documentElement.dataset.displayMode = mode;
  if (shown) render(shown, shownView);
}

/** Draws a result: the model's (framed on its viewport or its pins), or a move's (framed on the view moved to). */
function show(payload: ToolResultPayload, movedTo: Bounds | null = null): void {
  const result = readHomes<MapResult>(payload);
  if (result) render(result, movedTo);
  else if (movedTo && shown) setStatus(notice('This area could not be searched; try again.'));
  else mount(el('p', { class: 'notice error' }, 'This result has no apartments to show.'));
}

function render(result: MapResult, view: Bounds | null): void {
  shown = result;
  shownView = view;
  const clustered = (result.clusters?.length ?? 0) > 0;
  let box = detail(null, host, clustered && result.map_view.enabled);
  setStatus = (next) => {
    box.replaceWith(next);
    box = next;
  };
  const status: MapStatus = {
    show(home) {
      setStatus(detail(home, host));
      host.sendMessage(askAbout(home));
    },
    cluster: (c) => setStatus(clusterDetail(c)),
  };
  const more = clustered
    ? `${result.total_count} matches in ${result.clusters!.length} clusters`
    : `${result.count} on the map${result.total_count > result.count ? ` (the first ${result.count} of ${result.total_count} matches)` : ''}`;
  const facets = readFacets(result);
  const counts = facets ? facetList(facets) : null;
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
    mount(heading, off, homeList(result.homes, status), box, ...(counts ? [counts] : []));
    return;
  }
  // A view searched by a move stays on screen with no home in it, so the map can move on from there.
  if (!result.homes.length && !result.viewport) {
    mount(heading, el('p', { class: 'notice' }, 'No apartment matches this search.'), box);
    return;
  }
  const projection = frame(result.homes, result.near, viewOf(result, view));
  const drawn = drawMap(result, projection, status);
  const screen: ScreenOptions | null = modes.includes('fullscreen') ? { fullscreen: mode === 'fullscreen', toggle: () => void toggleScreen() } : null;
  const controls = mapControls(drawn.map, projection, host.canCallTools() ? { onMove: (b) => void searchView(b) } : null, screen);
  if (controls) drawn.frame.append(controls);
  mount(heading, drawn.frame, box, ...(counts ? [counts] : []));
}
