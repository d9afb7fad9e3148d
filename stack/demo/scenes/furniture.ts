/** Pieces shared by the room scenes: window, picture, plant, lamps. */
import { gradient, shade, type Canvas, type Rgb } from '../canvas';
import type { Rng } from '../prng';
import { ACCENTS, GREENS, LAMP_LIGHT, SKY_BOTTOM, SKY_TOP, WHITE } from './palette';

/** A window with sky, a distant skyline, mullions and optional curtains. */
export function drawWindow(c: Canvas, rng: Rng, u0: number, v0: number, u1: number, v1: number, curtain: Rgb | null): void {
  const frame = 0.008;
  c.rect(u0 - frame, v0 - frame * 1.5, u1 + frame, v1 + frame * 1.5, WHITE);
  c.rect(u0, v0, u1, v1, gradient(SKY_TOP, SKY_BOTTOM, v0, v1));
  let u = u0;
  while (u < u1) {
    const w = rng.float(0.02, 0.05);
    const top = v1 - (v1 - v0) * rng.float(0.15, 0.55);
    c.rect(u, top, Math.min(u1, u + w), v1, shade([150, 170, 190], rng.float(0.85, 1.05)));
    u += w + rng.float(0, 0.01);
  }
  const mid = (u0 + u1) / 2;
  c.rect(mid - frame / 2, v0, mid + frame / 2, v1, WHITE);
  c.rect(u0, v0 + (v1 - v0) * 0.4, u1, v0 + (v1 - v0) * 0.4 + frame, WHITE);
  c.rect(u0 - frame * 2, v1 + frame * 1.5, u1 + frame * 2, v1 + frame * 3, shade(WHITE, 0.92)); // sill
  if (curtain) {
    const w = (u1 - u0) * 0.22;
    const fall = gradient(curtain, shade(curtain, 0.8), v0, v1 + 0.1);
    c.rect(u0 - w * 0.6, v0 - 0.03, u0 + w * 0.4, v1 + 0.1, fall);
    c.rect(u1 - w * 0.4, v0 - 0.03, u1 + w * 0.6, v1 + 0.1, fall);
    c.rect(u0 - w, v0 - 0.04, u1 + w, v0 - 0.032, shade(curtain, 0.5)); // rod
  }
}

/** A framed abstract print. */
export function drawPicture(c: Canvas, rng: Rng, u0: number, v0: number, u1: number, v1: number): void {
  c.rect(u0, v0, u1, v1, [40, 36, 34]);
  const m = 0.006;
  c.rect(u0 + m, v0 + m * 1.5, u1 - m, v1 - m * 1.5, [246, 244, 238]);
  const [a, b] = rng.sample(ACCENTS, 2);
  const w = u1 - u0,
    h = v1 - v0;
  c.ellipse(u0 + w * rng.float(0.3, 0.7), v0 + h * rng.float(0.3, 0.6), w * 0.22, h * 0.22, a);
  c.rect(u0 + w * 0.2, v0 + h * 0.62, u0 + w * 0.8, v0 + h * 0.78, b, 0.85);
}

/** A potted plant whose pot stands on `floorV`. */
export function drawPlant(c: Canvas, rng: Rng, cu: number, floorV: number, size: number): void {
  const pot: Rgb = rng.pick([
    [190, 110, 80],
    [230, 228, 220],
    [70, 70, 74],
  ]);
  c.polygon(
    [
      [cu - size * 0.35, floorV - size * 0.9],
      [cu + size * 0.35, floorV - size * 0.9],
      [cu + size * 0.25, floorV],
      [cu - size * 0.25, floorV],
    ],
    pot,
  );
  for (let i = 0; i < 6; i++) {
    const green = rng.pick(GREENS);
    c.ellipse(cu + rng.float(-0.5, 0.5) * size, floorV - size * rng.float(1.2, 2.6), size * rng.float(0.25, 0.45), size * rng.float(0.35, 0.7), green);
  }
}

/** A floor lamp standing on `floorV` with its glow. */
export function drawFloorLamp(c: Canvas, cu: number, floorV: number, height: number, shadeColor: Rgb): void {
  const top = floorV - height;
  c.ellipse(cu, top + 0.04, 0.09, 0.12, LAMP_LIGHT, 0.18);
  c.rect(cu - 0.003, top + 0.05, cu + 0.003, floorV, [50, 50, 52]);
  c.ellipse(cu, floorV, 0.03, 0.008, [50, 50, 52]);
  c.polygon(
    [
      [cu - 0.025, top],
      [cu + 0.025, top],
      [cu + 0.04, top + 0.08],
      [cu - 0.04, top + 0.08],
    ],
    shadeColor,
  );
}

/** A small lamp on a surface at `surfaceV`. */
export function drawTableLamp(c: Canvas, cu: number, surfaceV: number, shadeColor: Rgb): void {
  c.ellipse(cu, surfaceV - 0.09, 0.05, 0.07, LAMP_LIGHT, 0.2);
  c.rect(cu - 0.008, surfaceV - 0.05, cu + 0.008, surfaceV, [180, 170, 150]);
  c.polygon(
    [
      [cu - 0.018, surfaceV - 0.12],
      [cu + 0.018, surfaceV - 0.12],
      [cu + 0.03, surfaceV - 0.05],
      [cu - 0.03, surfaceV - 0.05],
    ],
    shadeColor,
  );
}
