/**
 * The `_id` slices a full rebuild reads the homes by (./source.ts, homeBytesBySlice). A slice is a
 * regular expression on `_id`, answered from the `_id` index: the Mongo-wire server of stack/ walks
 * every key of that index for each one (~22 ms at 100,000 homes, whatever the expression), then
 * reads only the homes it matches. So slices should be few, but none so large that one query holds
 * the collection long or builds a large answer.
 *
 * The base slices cut ids by the classes of their last two characters (19 × 19, and one for ids
 * shorter than two): disjoint, and together every id. Most of them are empty for a given scheme of
 * ids (261 of 361 for `home-000123`; 105 for hex ids), so a rebuild records how many homes each of
 * its slices returned (the census, in `indexer_state`), and the next one reads neighbouring base
 * slices of one first class together, up to SLICE_TARGET homes a slice: every base slice is read
 * exactly once, whatever the census says; only how they are grouped follows it.
 */
import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from '../services/kernel/store/collections';

/**
 * One character class per `_id` position: each digit and hex letter alone (sequential and hex ids
 * spread evenly), then the other letters, then the rest. Together they hold every character.
 */
export const ID_CHARACTER_CLASSES = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f', '[g-z]', '[A-Z]', '[^0-9a-zA-Z]'];

const CLASSES = ID_CHARACTER_CLASSES.length;
/** Base slice 0: ids shorter than two characters. */
const SHORT_IDS = '^[\\s\\S]?\\z';
/** Base slices: the short ids, then one per pair of classes (last but one, last). */
export const BASE_SLICES = 1 + CLASSES * CLASSES;
/** Homes a grouped slice is planned to return at most (a base slice that holds more is read alone). */
export const SLICE_TARGET = 1_000;
/** What the census's base numbers mean: a census taken with other classes is not used. */
const LAYOUT = `${SHORT_IDS};${ID_CHARACTER_CLASSES.join(',')}`;
const CENSUS_ID = 'id_slices';

/** One query of a rebuild: its regular expression and the base slices it covers. */
export interface IdSlice {
  pattern: string;
  bases: number[];
}

/** What a rebuild read: each slice's base slices and how many homes it returned. */
export type SliceCensus = Array<{ bases: number[]; count: number }>;

/** The class of the last but one character of base slice `base` (-1 for the short ids). */
const firstClassOf = (base: number): number => (base === 0 ? -1 : Math.floor((base - 1) / CLASSES));
const secondClassOf = (base: number): number => (base - 1) % CLASSES;

/** The regular expression of some base slices of one first class (or the short ids alone). */
export function slicePattern(bases: readonly number[]): string {
  if (bases.length === 1 && bases[0] === 0) return SHORT_IDS;
  const first = ID_CHARACTER_CLASSES[firstClassOf(bases[0])];
  const seconds = bases.map((b) => ID_CHARACTER_CLASSES[secondClassOf(b)]);
  return seconds.length === 1 ? `${first}${seconds[0]}\\z` : `${first}(?:${seconds.join('|')})\\z`;
}

/** Every base slice alone: what a rebuild without a census reads. */
export function idSlices(): IdSlice[] {
  return Array.from({ length: BASE_SLICES }, (_, b) => ({ pattern: slicePattern([b]), bases: [b] }));
}

/**
 * The slices of the next rebuild. A group of the census that returned at most SLICE_TARGET homes
 * stays together and may join its neighbours of the same first class while the sum stays within
 * the target; a group that returned more, and every base slice the census does not cover, is read
 * alone (the next census then counts it alone). Every base slice is in exactly one slice.
 */
export function planSlices(census: SliceCensus | null, target = SLICE_TARGET): IdSlice[] {
  const units: Array<{ bases: number[]; count: number | null }> = [];
  const grouped = new Map<number, { bases: number[]; count: number }>();
  for (const g of census ?? []) {
    const sameFirst = g.bases.every((b) => firstClassOf(b) === firstClassOf(g.bases[0]));
    if (g.count <= target && sameFirst && (g.bases.length === 1 || firstClassOf(g.bases[0]) >= 0)) grouped.set(g.bases[0], g);
  }
  for (let b = 0; b < BASE_SLICES;) {
    const g = grouped.get(b);
    // A census group is kept only when it is exactly the next run of base slices.
    if (g && g.bases.every((x, i) => x === b + i)) {
      units.push({ bases: g.bases, count: g.count });
      b += g.bases.length;
    } else {
      units.push({ bases: [b], count: null });
      b += 1;
    }
  }
  const slices: IdSlice[] = [];
  let current: { bases: number[]; count: number } | null = null;
  for (const u of units) {
    const joins =
      current !== null &&
      u.count !== null &&
      firstClassOf(u.bases[0]) >= 0 &&
      firstClassOf(u.bases[0]) === firstClassOf(current.bases[0]) &&
      current.count + u.count <= target;
    if (joins && current) {
      current.bases.push(...u.bases);
      current.count += u.count!;
      continue;
    }
    if (current) slices.push({ pattern: slicePattern(current.bases), bases: current.bases });
    current = null;
    if (u.count === null || firstClassOf(u.bases[0]) < 0) slices.push({ pattern: slicePattern(u.bases), bases: [...u.bases] });
    else current = { bases: [...u.bases], count: u.count };
  }
  if (current) slices.push({ pattern: slicePattern(current.bases), bases: current.bases });
  return slices;
}

interface CensusRecord {
  _id: string;
  layout: string;
  groups: SliceCensus;
  at: Date;
}

const isCensus = (v: unknown): v is SliceCensus =>
  Array.isArray(v) &&
  v.every(
    (g) =>
      typeof g === 'object' &&
      g !== null &&
      Number.isInteger((g as { count: unknown }).count) &&
      Array.isArray((g as { bases: unknown }).bases) &&
      (g as { bases: unknown[] }).bases.length > 0 &&
      (g as { bases: unknown[] }).bases.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) < BASE_SLICES),
  );

/** The last full rebuild's census, or null (none yet, another layout, or not one we can read). */
export async function readSliceCensus(state: Collection<IndexerStateRecord>): Promise<SliceCensus | null> {
  const doc = (await state.findOne({ _id: CENSUS_ID })) as Partial<CensusRecord> | null;
  return doc?.layout === LAYOUT && isCensus(doc.groups) ? doc.groups : null;
}

/** Records what a full rebuild read, for the next one to plan its slices by. */
export async function saveSliceCensus(state: Collection<IndexerStateRecord>, census: SliceCensus, at: Date): Promise<void> {
  await state.updateOne({ _id: CENSUS_ID }, { $set: { layout: LAYOUT, groups: census, at } }, { upsert: true });
}
