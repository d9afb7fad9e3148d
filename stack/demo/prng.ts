/**
 * Seeded randomness for the demo inventory: mulberry32 streams keyed by a hash of their
 * purpose, so each building and home draws from its own stream. Output therefore depends only
 * on (seed, key), never on how many numbers some other record happened to draw.
 */

// Math's functions bound once: under Jest's vm sandbox each global `Math` lookup is slow.
const { floor, imul } = Math;

/** FNV-1a over the parts' text: a 32-bit stream key such as ("home", 42). */
export function hashKey(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  const text = parts.join('\u0001');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny, fast 32-bit generator, uniform on [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = imul(a ^ (a >>> 15), 1 | a);
    t = (t + imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly draw: () => number;

  constructor(seed: number) {
    this.draw = mulberry32(seed);
  }

  /** Uniform on [0, 1). */
  next(): number {
    return this.draw();
  }

  /** Integer in [lo, hi], both inclusive. */
  int(lo: number, hi: number): number {
    return lo + floor(this.draw() * (hi - lo + 1));
  }

  /** Real number in [lo, hi). */
  float(lo: number, hi: number): number {
    return lo + this.draw() * (hi - lo);
  }

  chance(p: number): boolean {
    return this.draw() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[floor(this.draw() * items.length)];
  }

  /** Picks a value with probability proportional to its weight. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of choices) total += w;
    let r = this.draw() * total;
    for (const [value, w] of choices) {
      r -= w;
      if (r < 0) return value;
    }
    return choices[choices.length - 1][0];
  }

  /** `count` distinct items in random order (all of them when count >= length). */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = items.slice();
    const out: T[] = [];
    while (out.length < count && pool.length > 0) {
      out.push(pool.splice(floor(this.draw() * pool.length), 1)[0]);
    }
    return out;
  }
}

/** The stream of one record: same (seed, parts) ⇒ same numbers. */
export function rngFor(seed: number, ...parts: Array<string | number>): Rng {
  return new Rng(hashKey(seed, ...parts));
}
