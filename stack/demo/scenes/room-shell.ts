/** The empty room every interior photo starts from: one-point perspective onto a back wall. */
import { gradient, shade, type Canvas, type Rgb } from '../canvas';
import type { Rng } from '../prng';
import { FLOORS, WALLS } from './palette';

/** Where the back wall sits in the picture, for placing furniture against it. */
export interface RoomShell {
  left: number;
  right: number;
  top: number;
  /** v of the back wall's foot, the line furniture stands on. */
  floor: number;
  wall: Rgb;
  floorColor: Rgb;
}

export function drawRoomShell(c: Canvas, rng: Rng): RoomShell {
  const left = rng.float(0.14, 0.24);
  const right = rng.float(0.76, 0.86);
  const top = rng.float(0.08, 0.14);
  const floor = rng.float(0.6, 0.68);
  const wall = rng.pick(WALLS);
  const floorColor = rng.pick(FLOORS);

  c.polygon(
    [
      [0, 0],
      [1, 0],
      [right, top],
      [left, top],
    ],
    shade(wall, 1.06),
  );
  c.polygon(
    [
      [0, 0],
      [left, top],
      [left, floor],
      [0, 1],
    ],
    gradient(shade(wall, 0.93), shade(wall, 0.86), 0, 1),
  );
  c.polygon(
    [
      [1, 0],
      [right, top],
      [right, floor],
      [1, 1],
    ],
    gradient(shade(wall, 0.84), shade(wall, 0.76), 0, 1),
  );
  c.rect(left, top, right, floor, gradient(shade(wall, 1.02), shade(wall, 0.96), top, floor));
  c.polygon(
    [
      [left, floor],
      [right, floor],
      [1, 1],
      [0, 1],
    ],
    gradient(shade(floorColor, 1.08), shade(floorColor, 0.82), floor, 1),
  );

  // Floor boards converge on the vanishing point at the back wall's centre.
  const boards = rng.int(7, 11);
  for (let i = 1; i < boards; i++) {
    const t = i / boards;
    c.line([left + (right - left) * t, floor], [t, 1], 1.2, shade(floorColor, 0.78), 0.6);
  }
  c.rect(left, floor - 0.012, right, floor, shade(wall, 1.08)); // baseboard
  c.line([left, top], [left, floor], 1, shade(wall, 0.8), 0.5);
  c.line([right, top], [right, floor], 1, shade(wall, 0.7), 0.5);
  return { left, right, top, floor, wall, floorColor };
}
