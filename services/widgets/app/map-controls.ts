/**
 * Moving the map: a drag pans it, the buttons zoom in and out (and the arrow keys pan), and each
 * move asks for the homes of the new view (`onMove` with its bounds); the full-screen button asks
 * the host for its fullscreen display mode. Only what the host supports is shown.
 */
import type { GeoProjection } from 'd3-geo';
import { el } from './dom';
import { atClosest, HEIGHT, shownBounds, WIDTH, zoomBounds, type Bounds } from './map-frame';

export interface MoveOptions {
  /** Called with the view a drag, a key or a zoom button asks for. */
  onMove(bounds: Bounds): void;
}

export interface ScreenOptions {
  fullscreen: boolean;
  toggle(): void;
}

const KEY_STEPS: Record<string, [number, number]> = {
  ArrowLeft: [WIDTH / 4, 0],
  ArrowRight: [-WIDTH / 4, 0],
  ArrowUp: [0, HEIGHT / 4],
  ArrowDown: [0, -HEIGHT / 4],
};

function button(label: string, testId: string, act: () => void, disabled = false): HTMLButtonElement {
  const b = el('button', { type: 'button', class: 'map-button', 'data-testid': testId, 'aria-label': label, title: label });
  b.textContent = testId === 'zoom-in' ? '+' : testId === 'zoom-out' ? '−' : label;
  b.disabled = disabled;
  b.addEventListener('click', act);
  return b;
}

/** Drag to pan: the drawing follows the pointer, and the release asks for the view it shows. */
function draggable(map: SVGSVGElement, projection: GeoProjection, move: MoveOptions): void {
  let start: { x: number; y: number; id: number } | null = null;
  const units = (): number => WIDTH / (map.getBoundingClientRect().width || WIDTH);
  const offset = (event: PointerEvent): [number, number] => (start ? [(event.clientX - start.x) * units(), (event.clientY - start.y) * units()] : [0, 0]);
  map.addEventListener('pointerdown', (event) => {
    if ((event.target as Element).closest('.pin, .cluster')) return; // a click on a marker, not a drag
    start = { x: event.clientX, y: event.clientY, id: event.pointerId };
    map.setPointerCapture(event.pointerId);
    map.classList.add('dragging');
  });
  map.addEventListener('pointermove', (event) => {
    if (!start || event.pointerId !== start.id) return;
    const [dx, dy] = offset(event);
    for (const layer of map.children) (layer as SVGElement).setAttribute('transform', `translate(${dx.toFixed(1)} ${dy.toFixed(1)})`);
  });
  const end = (event: PointerEvent): void => {
    if (!start || event.pointerId !== start.id) return;
    const [dx, dy] = offset(event);
    start = null;
    map.classList.remove('dragging');
    if (Math.hypot(dx, dy) >= 4) move.onMove(shownBounds(projection, dx, dy));
    else for (const layer of map.children) (layer as SVGElement).removeAttribute('transform');
  };
  map.addEventListener('pointerup', end);
  map.addEventListener('pointercancel', end);
  map.setAttribute('tabindex', '0');
  map.setAttribute('aria-keyshortcuts', Object.keys(KEY_STEPS).join(' '));
  map.addEventListener('keydown', (event) => {
    const step = KEY_STEPS[event.key];
    if (!step) return;
    event.preventDefault();
    move.onMove(shownBounds(projection, step[0], step[1]));
  });
}

/** The toolbar over the map (zoom, full screen); the map becomes draggable when it can move. */
export function mapControls(map: SVGSVGElement, projection: GeoProjection, move: MoveOptions | null, screen: ScreenOptions | null): HTMLElement | null {
  const buttons: HTMLButtonElement[] = [];
  if (move) {
    draggable(map, projection, move);
    const shown = shownBounds(projection);
    buttons.push(button('Zoom in', 'zoom-in', () => move.onMove(zoomBounds(shown, 2)), atClosest(shown)));
    buttons.push(button('Zoom out', 'zoom-out', () => move.onMove(zoomBounds(shown, 0.5))));
  }
  if (screen) buttons.push(button(screen.fullscreen ? 'Exit full screen' : 'Full screen', 'fullscreen', screen.toggle));
  return buttons.length ? el('div', { class: 'map-controls', role: 'toolbar', 'aria-label': 'Map' }, ...buttons) : null;
}
