/**
 * A tiny RGB raster with flat-shaded primitives for the procedural demo photos. Coordinates are
 * fractions of the picture (u across, v down, 0..1), so one scene draws alike at every size.
 */
export type Rgb = readonly [number, number, number];
export type Point = readonly [number, number];
/** A fill: one colour, or a colour per vertical position v (0..1 over the picture). */
export type Fill = Rgb | ((v: number) => Rgb);

// Math's functions bound once: under Jest's vm sandbox each global `Math` lookup is slow.
const { ceil, floor, hypot, max, min, round, sqrt } = Math;

export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** Darker (factor < 1) or lighter (factor > 1) version of a colour. */
export function shade(c: Rgb, factor: number): Rgb {
  return factor <= 1 ? mix([0, 0, 0], c, factor) : mix(c, [255, 255, 255], min(1, factor - 1));
}

/** A fill running from `top` at v0 to `bottom` at v1. */
export function gradient(top: Rgb, bottom: Rgb, v0: number, v1: number): (v: number) => Rgb {
  return (v) => mix(top, bottom, min(1, max(0, (v - v0) / (v1 - v0 || 1))));
}

/** Packs a colour as one RGBA pixel in the platform's byte order (opaque spans become `fill`). */
const PACK_BYTES = new Uint8Array(4);
const PACK_WORD = new Int32Array(PACK_BYTES.buffer);

function packed(r: number, g: number, b: number): number {
  PACK_BYTES[0] = r;
  PACK_BYTES[1] = g;
  PACK_BYTES[2] = b;
  PACK_BYTES[3] = 255;
  return PACK_WORD[0];
}

export class Canvas {
  /** RGBA, 4 bytes per pixel, rows top to bottom. */
  readonly data: Uint8Array;
  private readonly pixels: Int32Array;

  /** `pixels` lets a caller reuse a scratch buffer of width*height words; it is overwritten. */
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb = [255, 255, 255],
    pixels?: Int32Array,
  ) {
    if (pixels && pixels.length !== width * height) throw new Error('scratch buffer of the wrong size');
    this.pixels = pixels ?? new Int32Array(width * height);
    this.data = new Uint8Array(this.pixels.buffer);
    this.rect(0, 0, 1, 1, background);
  }

  rect(u0: number, v0: number, u1: number, v1: number, fill: Fill, alpha = 1): void {
    const x0 = this.px(min(u0, u1)),
      x1 = this.px(max(u0, u1));
    const y0 = this.py(min(v0, v1)),
      y1 = this.py(max(v0, v1));
    for (let y = y0; y < y1; y++) this.span(y, x0, x1, this.colorAt(fill, y), alpha);
  }

  /** Axis-aligned ellipse; ru is a fraction of the width, rv of the height. */
  ellipse(cu: number, cv: number, ru: number, rv: number, fill: Fill, alpha = 1): void {
    const cx = cu * this.width,
      cy = cv * this.height;
    const rx = ru * this.width,
      ry = rv * this.height;
    if (rx <= 0 || ry <= 0) return;
    for (let y = this.py(cv - rv); y < this.py(cv + rv); y++) {
      const dy = (y + 0.5 - cy) / ry;
      if (dy * dy >= 1) continue;
      const half = rx * sqrt(1 - dy * dy);
      this.span(y, round(cx - half), round(cx + half), this.colorAt(fill, y), alpha);
    }
  }

  /** Any simple polygon, even-odd scanline fill. */
  polygon(points: readonly Point[], fill: Fill, alpha = 1): void {
    const xs = points.map(([u]) => u * this.width);
    const ys = points.map(([, v]) => v * this.height);
    const top = this.clampY(floor(min(...ys)));
    const bottom = this.clampY(ceil(max(...ys)));
    const hits: number[] = [];
    for (let y = top; y < bottom; y++) {
      const yc = y + 0.5;
      hits.length = 0;
      for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
        if (ys[i] <= yc !== ys[j] <= yc) hits.push(xs[i] + ((yc - ys[i]) / (ys[j] - ys[i])) * (xs[j] - xs[i]));
      }
      hits.sort((a, b) => a - b);
      const color = this.colorAt(fill, y);
      for (let k = 0; k + 1 < hits.length; k += 2) this.span(y, round(hits[k]), round(hits[k + 1]), color, alpha);
    }
  }

  /** A straight stroke `thickness` pixels wide (at 1200 px; scaled with the picture). */
  line(a: Point, b: Point, thickness: number, fill: Fill, alpha = 1): void {
    const dx = (b[0] - a[0]) * this.width,
      dy = (b[1] - a[1]) * this.height;
    const len = hypot(dx, dy) || 1;
    const t = (thickness * this.width) / 1200 / 2;
    const nu = ((-dy / len) * t) / this.width,
      nv = ((dx / len) * t) / this.height;
    this.polygon(
      [
        [a[0] + nu, a[1] + nv],
        [b[0] + nu, b[1] + nv],
        [b[0] - nu, b[1] - nv],
        [a[0] - nu, a[1] - nv],
      ],
      fill,
      alpha,
    );
  }

  private span(y: number, x0: number, x1: number, c: Rgb, alpha: number): void {
    const from = max(0, x0),
      to = min(this.width, x1);
    if (to <= from || y < 0 || y >= this.height) return;
    const r = round(c[0]),
      g = round(c[1]),
      b = round(c[2]);
    if (alpha >= 1) {
      this.pixels.fill(packed(r, g, b), y * this.width + from, y * this.width + to);
      return;
    }
    const d = this.data;
    let p = (y * this.width + from) * 4;
    for (let x = from; x < to; x++, p += 4) {
      d[p] += round((r - d[p]) * alpha);
      d[p + 1] += round((g - d[p + 1]) * alpha);
      d[p + 2] += round((b - d[p + 2]) * alpha);
    }
  }

  private colorAt(fill: Fill, y: number): Rgb {
    return typeof fill === 'function' ? fill((y + 0.5) / this.height) : fill;
  }

  private px(u: number): number {
    return min(this.width, max(0, round(u * this.width)));
  }

  private py(v: number): number {
    return min(this.height, max(0, round(v * this.height)));
  }

  private clampY(y: number): number {
    return min(this.height, max(0, y));
  }
}
