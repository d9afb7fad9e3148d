/** Bedroom: a made bed against the back wall, nightstands with lamps, a print and a window. */
import { gradient, shade, type Canvas } from '../canvas';
import type { Rng } from '../prng';
import { drawPicture, drawPlant, drawTableLamp, drawWindow } from './furniture';
import { ACCENTS, FABRICS, WHITE, WOODS } from './palette';
import { drawRoomShell } from './room-shell';

export function drawBedroom(c: Canvas, rng: Rng): void {
  const room = drawRoomShell(c, rng);
  const wallW = room.right - room.left;
  const mid = room.left + wallW * rng.float(0.45, 0.6);
  const half = wallW * 0.22;
  const windowOnLeft = mid > room.left + wallW * 0.5;
  const winU0 = windowOnLeft ? room.left + wallW * 0.04 : room.right - wallW * 0.24;
  drawWindow(c, rng, winU0, room.top + 0.07, winU0 + wallW * 0.2, room.floor - 0.22, rng.pick(FABRICS));
  drawPicture(c, rng, mid - half * 0.5, room.top + 0.06, mid + half * 0.5, room.top + 0.17);

  const headboard = rng.pick(FABRICS);
  c.rect(mid - half, room.floor - 0.24, mid + half, room.floor + 0.02, gradient(shade(headboard, 1.1), headboard, room.floor - 0.24, room.floor));
  const blanket = rng.pick(FABRICS.filter((f) => f !== headboard));
  const bedTop = room.floor - 0.07;
  c.ellipse(mid, 0.95, half * 1.5, 0.03, [0, 0, 0], 0.2);
  c.polygon(
    [
      [mid - half, bedTop],
      [mid + half, bedTop],
      [mid + half * 1.45, 0.86],
      [mid - half * 1.45, 0.86],
    ],
    shade(WHITE, 0.95),
  );
  c.polygon(
    [
      [mid - half * 1.05, bedTop + 0.07],
      [mid + half * 1.05, bedTop + 0.07],
      [mid + half * 1.48, 0.88],
      [mid - half * 1.48, 0.88],
    ],
    gradient(shade(blanket, 1.1), shade(blanket, 0.85), bedTop, 0.88),
  );
  c.rect(mid - half * 1.48, 0.88, mid + half * 1.48, 0.93, shade(blanket, 0.7));
  c.line([mid - half * 1.1, bedTop + 0.13], [mid + half * 1.1, bedTop + 0.13], 3, shade(blanket, 1.3));
  for (const side of [-1, 1]) {
    c.ellipse(mid + side * half * 0.45, bedTop + 0.02, half * 0.38, 0.035, WHITE);
    c.ellipse(mid + side * half * 0.45, bedTop + 0.03, half * 0.36, 0.03, shade(WHITE, 0.93));
  }
  c.ellipse(mid, bedTop + 0.04, half * 0.22, 0.028, rng.pick(ACCENTS));

  const wood = rng.pick(WOODS);
  for (const side of [-1, 1]) {
    const u0 = side < 0 ? mid - half - 0.11 : mid + half + 0.02;
    const u1 = u0 + 0.09;
    c.rect(u0, room.floor - 0.09, u1, room.floor + 0.03, wood);
    c.rect(u0, room.floor - 0.09, u1, room.floor - 0.08, shade(wood, 1.2));
    c.line([u0 + 0.01, room.floor - 0.03], [u1 - 0.01, room.floor - 0.03], 1.5, shade(wood, 0.6));
    drawTableLamp(c, (u0 + u1) / 2, room.floor - 0.09, [240, 232, 214]);
  }
  if (rng.chance(0.6)) drawPlant(c, rng, windowOnLeft ? room.right - 0.04 : room.left + 0.04, room.floor + 0.03, 0.045);
}
