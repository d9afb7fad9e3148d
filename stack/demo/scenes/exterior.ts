/** Building exterior: a facade with a window grid and lit units, an entrance, street and trees. */
import { gradient, mix, shade, type Canvas, type Rgb } from '../canvas';
import type { Rng } from '../prng';
import { FACADES, GREENS, SKY_BOTTOM, SKY_TOP } from './palette';

export function drawExterior(c: Canvas, rng: Rng): void {
  c.rect(0, 0, 1, 1, gradient(SKY_TOP, SKY_BOTTOM, 0, 0.8));
  for (let i = rng.int(1, 3); i > 0; i--) {
    const u = rng.float(0.05, 0.95),
      v = rng.float(0.05, 0.25);
    for (let k = 0; k < 4; k++) c.ellipse(u + k * 0.03 - 0.045, v + (k % 2) * 0.01, 0.04, 0.025, [255, 255, 255], 0.7);
  }
  const ground = 0.84;
  // Neighbours at the picture's edges.
  c.rect(0, rng.float(0.25, 0.45), 0.14, ground, shade(rng.pick(FACADES), 0.85));
  c.rect(0.86, rng.float(0.3, 0.5), 1, ground, shade(rng.pick(FACADES), 0.8));

  const facade = rng.pick(FACADES);
  const top = rng.float(0.06, 0.3);
  const u0 = rng.float(0.14, 0.2),
    u1 = 1 - rng.float(0.14, 0.2);
  c.rect(u0, top, u1, ground, gradient(shade(facade, 1.05), shade(facade, 0.9), top, ground));
  c.rect(u0 - 0.01, top - 0.015, u1 + 0.01, top + 0.005, shade(facade, 0.7)); // cornice
  const cols = rng.int(5, 8);
  const rows = Math.max(2, Math.round((ground - 0.12 - top) / 0.09));
  const cellW = (u1 - u0) / cols,
    cellH = (ground - 0.12 - top - 0.02) / rows;
  const glass: Rgb = rng.pick([
    [70, 90, 110],
    [90, 110, 128],
    [60, 70, 84],
  ]);
  for (let r = 0; r < rows; r++) {
    const v = top + 0.03 + r * cellH;
    c.rect(u0, v + cellH - 0.006, u1, v + cellH, shade(facade, 0.8)); // floor band
    for (let k = 0; k < cols; k++) {
      const wu = u0 + k * cellW + cellW * 0.22;
      const lit = rng.chance(0.15);
      const pane = lit ? mix([255, 222, 150], glass, 0.2) : glass;
      c.rect(wu, v + cellH * 0.18, wu + cellW * 0.56, v + cellH * 0.8, gradient(shade(pane, 1.25), pane, v, v + cellH));
      c.rect(wu - 0.004, v + cellH * 0.8, wu + cellW * 0.56 + 0.004, v + cellH * 0.84, shade(facade, 1.2));
    }
  }
  // Entrance with an awning.
  const mid = (u0 + u1) / 2;
  const awning: Rgb = rng.pick([
    [40, 60, 80],
    [120, 40, 40],
    [40, 40, 44],
    [60, 90, 70],
  ]);
  c.rect(mid - 0.06, ground - 0.1, mid + 0.06, ground, [50, 56, 62]);
  c.rect(mid - 0.05, ground - 0.09, mid + 0.05, ground, gradient([150, 170, 180], [90, 104, 114], ground - 0.09, ground));
  c.line([mid, ground - 0.09], [mid, ground], 2, [50, 56, 62]);
  c.polygon(
    [
      [mid - 0.09, ground - 0.125],
      [mid + 0.09, ground - 0.125],
      [mid + 0.1, ground - 0.1],
      [mid - 0.1, ground - 0.1],
    ],
    awning,
  );
  c.rect(u0, ground - 0.012, u1, ground, shade(facade, 0.6));

  c.rect(0, ground, 1, 0.9, [196, 194, 188]); // sidewalk
  c.rect(0, 0.9, 1, 1, [88, 90, 94]); // street
  for (let u = 0.05; u < 1; u += 0.2) c.rect(u, 0.945, u + 0.08, 0.955, [230, 220, 160]);
  for (const tu of [rng.float(0.04, 0.12), rng.float(0.88, 0.96)]) drawTree(c, rng, tu, ground + 0.03);
}

function drawTree(c: Canvas, rng: Rng, u: number, groundV: number): void {
  c.rect(u - 0.006, groundV - 0.18, u + 0.006, groundV, [90, 66, 48]);
  for (let i = 0; i < 7; i++) {
    c.ellipse(
      u + rng.float(-0.05, 0.05),
      groundV - rng.float(0.18, 0.3),
      rng.float(0.03, 0.05),
      rng.float(0.05, 0.08),
      shade(rng.pick(GREENS), rng.float(0.85, 1.1)),
    );
  }
}
