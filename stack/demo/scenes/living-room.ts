/** Living room: sofa under a print, coffee table on a rug, a floor lamp, a window and a plant. */
import { gradient, shade, type Canvas } from '../canvas';
import type { Rng } from '../prng';
import { drawFloorLamp, drawPicture, drawPlant, drawWindow } from './furniture';
import { ACCENTS, FABRICS, WOODS } from './palette';
import { drawRoomShell } from './room-shell';

export function drawLivingRoom(c: Canvas, rng: Rng): void {
  const room = drawRoomShell(c, rng);
  const wallW = room.right - room.left;
  const windowLeft = rng.chance(0.5);
  const sofaU0 = room.left + wallW * (windowLeft ? 0.42 : 0.06);
  const sofaU1 = sofaU0 + wallW * 0.5;
  const winU0 = windowLeft ? room.left + wallW * 0.06 : room.left + wallW * 0.64;
  drawWindow(c, rng, winU0, room.top + 0.08, winU0 + wallW * 0.28, room.floor - 0.2, rng.chance(0.7) ? rng.pick(FABRICS) : null);
  drawPicture(c, rng, sofaU0 + wallW * 0.12, room.top + 0.1, sofaU1 - wallW * 0.12, room.top + 0.24);

  // Rug and coffee table in the foreground.
  const rug = rng.pick(ACCENTS);
  c.polygon(
    [
      [sofaU0 - 0.02, room.floor + 0.08],
      [sofaU1 + 0.02, room.floor + 0.08],
      [sofaU1 + 0.1, 0.93],
      [sofaU0 - 0.1, 0.93],
    ],
    shade(rug, 0.9),
  );
  c.polygon(
    [
      [sofaU0 + 0.01, room.floor + 0.1],
      [sofaU1 - 0.01, room.floor + 0.1],
      [sofaU1 + 0.06, 0.9],
      [sofaU0 - 0.06, 0.9],
    ],
    shade(rug, 1.25),
  );

  const fabric = rng.pick(FABRICS);
  const seat = room.floor + 0.03;
  c.ellipse((sofaU0 + sofaU1) / 2, seat + 0.035, (sofaU1 - sofaU0) * 0.55, 0.02, [0, 0, 0], 0.25);
  c.rect(sofaU0, room.floor - 0.17, sofaU1, seat, gradient(shade(fabric, 1.05), shade(fabric, 0.9), room.floor - 0.17, seat));
  c.rect(sofaU0 - 0.01, room.floor - 0.06, sofaU1 + 0.01, seat + 0.02, shade(fabric, 1.12));
  c.rect(sofaU0 - 0.03, room.floor - 0.1, sofaU0 + 0.015, seat + 0.02, shade(fabric, 0.85));
  c.rect(sofaU1 - 0.015, room.floor - 0.1, sofaU1 + 0.03, seat + 0.02, shade(fabric, 0.85));
  const cushions = rng.int(2, 3);
  for (let i = 1; i < cushions; i++) {
    const u = sofaU0 + ((sofaU1 - sofaU0) * i) / cushions;
    c.line([u, room.floor - 0.16], [u, seat + 0.01], 2, shade(fabric, 0.7));
  }
  const pillow = rng.pick(ACCENTS);
  c.rect(sofaU0 + 0.02, room.floor - 0.12, sofaU0 + 0.07, room.floor - 0.05, pillow);
  c.rect(sofaU1 - 0.07, room.floor - 0.12, sofaU1 - 0.02, room.floor - 0.05, pillow);
  c.rect(sofaU0, seat + 0.02, sofaU0 + 0.008, seat + 0.04, [40, 34, 30]);
  c.rect(sofaU1 - 0.008, seat + 0.02, sofaU1, seat + 0.04, [40, 34, 30]);

  const wood = rng.pick(WOODS);
  const tableV = room.floor + 0.16;
  const mid = (sofaU0 + sofaU1) / 2;
  c.rect(mid - 0.12, tableV, mid - 0.11, tableV + 0.08, shade(wood, 0.7));
  c.rect(mid + 0.11, tableV, mid + 0.12, tableV + 0.08, shade(wood, 0.7));
  c.polygon(
    [
      [mid - 0.12, tableV - 0.03],
      [mid + 0.12, tableV - 0.03],
      [mid + 0.14, tableV],
      [mid - 0.14, tableV],
    ],
    shade(wood, 1.1),
  );
  c.rect(mid - 0.14, tableV, mid + 0.14, tableV + 0.015, wood);
  c.ellipse(mid + 0.05, tableV - 0.035, 0.015, 0.012, rng.pick(ACCENTS)); // a bowl

  const lampU = windowLeft ? sofaU1 + 0.06 : sofaU0 - 0.06;
  drawFloorLamp(c, lampU, room.floor + 0.04, 0.42, [244, 236, 220]);
  drawPlant(c, rng, windowLeft ? room.left + wallW * 0.38 : room.right - 0.02, room.floor + 0.02, 0.05);
}
