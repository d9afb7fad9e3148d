/**
 * What the benchmarks ask for, drawn uniformly over the whole generated inventory (the last homes
 * as often as the first), from a fixed seed so two runs ask the same questions.
 */
import { generateInventory } from '../../stack/demo/generate';
import { hashKey, mulberry32 } from '../../stack/demo/prng';
import { addDays } from '../../services/kernel/engine/dates';

export interface Sample {
  /** A slug of the inventory. */
  slug(): string;
  /** A slug of the inventory, or (one time in ten) one that does not exist. */
  slugOrUnknown(): string;
  /** `n` distinct home ids spread over the whole inventory. */
  homeIds(n: number): string[];
  marketSlug(): string;
  citySlug(): string;
  /** A stay: move-in within the next 120 days, 2 to 120 nights. */
  stay(): { start: string; end: string; nights: number };
  pick<T>(items: readonly T[]): T;
  int(min: number, max: number): number;
  /**
   * The same inventory with a random stream of its own, seeded by `label`: each section of the bench
   * takes its own, so it asks the same questions whichever sections ran before it.
   */
  fork(label: string): Sample;
}

export function sampleInventory(opts: { seed: number; homes: number; today: string }, rngSeed = 20261122): Sample {
  const inv = generateInventory(opts);
  const slugs: string[] = [];
  const ids: string[] = [];
  for (const h of inv.homes) {
    slugs.push(h.slug);
    ids.push(h._id);
  }
  const markets = inv.markets.map((m) => m.slug);
  const cities = inv.markets.flatMap((m) => m.cities.map((c) => c.slug));
  const stream = (seed: number): Sample => {
    const rnd = mulberry32(seed);
    const int = (min: number, max: number): number => min + Math.floor(rnd() * (max - min + 1));
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)];
    let unknown = 0;
    return {
      slug: () => pick(slugs),
      slugOrUnknown: () => (rnd() < 0.1 ? `no-such-home-${(unknown += 1)}` : pick(slugs)),
      homeIds(n) {
        const chosen = new Set<string>();
        while (chosen.size < Math.min(n, ids.length)) chosen.add(pick(ids));
        return [...chosen];
      },
      marketSlug: () => pick(markets),
      citySlug: () => pick(cities),
      stay() {
        const start = addDays(opts.today, int(0, 120));
        const nights = int(2, 120);
        return { start, end: addDays(start, nights), nights };
      },
      pick,
      int,
      fork: (label) => stream((rngSeed ^ hashKey(label)) >>> 0),
    };
  };
  return stream(rngSeed);
}
