/** Kitchen: base and wall cabinets, a counter with backsplash, a fridge, pendants and an island. */
import { gradient, shade, type Canvas } from '../canvas';
import type { Rng } from '../prng';
import { drawWindow } from './furniture';
import { CABINETS, LAMP_LIGHT, WOODS } from './palette';
import { drawRoomShell } from './room-shell';

export function drawKitchen(c: Canvas, rng: Rng): void {
  const room = drawRoomShell(c, rng);
  const wallW = room.right - room.left;
  const cabinet = rng.pick(CABINETS);
  const counterTop = room.floor - 0.16;
  const counter = rng.pick<readonly [number, number, number]>([
    [232, 230, 226],
    [60, 60, 64],
    [200, 190, 176],
  ]);
  const fridgeLeft = rng.chance(0.5);
  const fridgeU0 = fridgeLeft ? room.left : room.right - wallW * 0.16;
  const fridgeU1 = fridgeU0 + wallW * 0.16;
  const runU0 = fridgeLeft ? fridgeU1 : room.left;
  const runU1 = fridgeLeft ? room.right : fridgeU0;

  // Backsplash tiles between counter and wall cabinets.
  const tile = shade(
    rng.pick<readonly [number, number, number]>([
      [236, 236, 232],
      [190, 210, 214],
      [214, 200, 180],
    ]),
    1,
  );
  c.rect(runU0, room.top + 0.2, runU1, counterTop, tile);
  for (let v = counterTop - 0.025; v > room.top + 0.2; v -= 0.025) c.line([runU0, v], [runU1, v], 1, shade(tile, 0.85));
  for (let u = runU0 + 0.03; u < runU1; u += 0.03) c.line([u, room.top + 0.2], [u, counterTop], 1, shade(tile, 0.88));

  const winU0 = runU0 + (runU1 - runU0) * 0.36;
  const winU1 = runU0 + (runU1 - runU0) * 0.64;
  drawWindow(c, rng, winU0, room.top + 0.06, winU1, counterTop - 0.06, null);
  for (const [u0, u1] of [
    [runU0, winU0 - 0.03],
    [winU1 + 0.03, runU1],
  ]) {
    c.rect(u0, room.top, u1, room.top + 0.18, gradient(shade(cabinet, 1.04), shade(cabinet, 0.94), room.top, room.top + 0.18));
    drawDoors(c, u0, room.top, u1, room.top + 0.18, cabinet, 'bottom');
  }
  c.rect(runU0, counterTop + 0.012, runU1, room.floor, gradient(shade(cabinet, 0.98), shade(cabinet, 0.86), counterTop, room.floor));
  drawDoors(c, runU0, counterTop + 0.015, runU1, room.floor - 0.01, cabinet, 'top');
  c.rect(runU0 - 0.005, counterTop, runU1 + 0.005, counterTop + 0.014, counter);

  c.rect(fridgeU0, room.top + 0.02, fridgeU1, room.floor, gradient([214, 216, 220], [170, 174, 180], room.top, room.floor));
  c.line([fridgeU0, room.top + 0.2], [fridgeU1, room.top + 0.2], 1.5, [130, 134, 140]);
  c.rect(fridgeU1 - 0.012, room.top + 0.22, fridgeU1 - 0.008, room.top + 0.32, [110, 114, 120]);

  // Pendants over an island in the foreground, with stools.
  const mid = (runU0 + runU1) / 2;
  for (const u of [mid - 0.12, mid + 0.12]) {
    c.line([u, 0], [u, 0.2], 1.2, [40, 40, 40]);
    c.ellipse(u, 0.24, 0.07, 0.08, LAMP_LIGHT, 0.15);
    c.polygon(
      [
        [u - 0.012, 0.2],
        [u + 0.012, 0.2],
        [u + 0.035, 0.24],
        [u - 0.035, 0.24],
      ],
      [50, 50, 54],
    );
  }
  const island = rng.pick(WOODS);
  c.rect(mid - 0.27, 0.74, mid + 0.27, 0.98, gradient(shade(cabinet, 0.92), shade(cabinet, 0.72), 0.74, 0.98));
  c.polygon(
    [
      [mid - 0.27, 0.72],
      [mid + 0.27, 0.72],
      [mid + 0.29, 0.75],
      [mid - 0.29, 0.75],
    ],
    counter,
  );
  for (const u of [mid - 0.16, mid, mid + 0.16]) {
    c.ellipse(u, 0.8, 0.035, 0.014, island);
    c.line([u - 0.025, 0.8], [u - 0.03, 0.99], 2, shade(island, 0.6));
    c.line([u + 0.025, 0.8], [u + 0.03, 0.99], 2, shade(island, 0.6));
  }
  c.ellipse(mid + 0.08, 0.728, 0.03, 0.01, [200, 80, 60]); // a fruit bowl on the island
}

function drawDoors(c: Canvas, u0: number, v0: number, u1: number, v1: number, color: readonly [number, number, number], handle: 'top' | 'bottom'): void {
  const doors = Math.max(1, Math.round((u1 - u0) / 0.07));
  const w = (u1 - u0) / doors;
  for (let i = 0; i < doors; i++) {
    const a = u0 + i * w;
    c.line([a + w, v0], [a + w, v1], 1.2, shade(color, 0.7));
    const hv = handle === 'top' ? v0 + 0.02 : v1 - 0.03;
    c.rect(a + w * 0.42, hv, a + w * 0.58, hv + 0.006, [90, 90, 94]);
  }
}
