/**
 * The stay's conditions of a search (./stay-clauses.ts: availabilityClauses, exactPriceClauses and the
 * fixed stay's price band) decided on one home's index document in Node, with the answer
 * Elasticsearch gives for the same clauses over the same fields: for the watches' matching, which
 * asks many searches of a few homes (../apartments/restricted-searches.ts). Each of these clauses,
 * evaluated on its own per request, costs Elasticsearch a pass over its field's points for the whole
 * shard (a `term` on a range field is not lazy), where reading the home's fields is one lookup.
 *
 * The fields are Elasticsearch range fields as the indexer writes them (kernel/store/home-document.ts):
 * `{ gte, lt? }` days (no `lt`: open-ended) and `{ gte, lte }` keys. A `term` on a range field matches a
 * range that holds the value; `relation: contains` a range that holds the whole query range. Flex
 * stays (nested tiers) stay with Elasticsearch. Pure; tested against Elasticsearch's own answers.
 */
import type { DayRangeValue, HomeDocument } from '../../kernel/store/home-document';
import type { KeyRange } from '../../kernel/store/minimum-keys';
import { minimumKeys } from '../../kernel/store/minimum-keys';
import { cellKeyOf, nightCut } from '../../kernel/store/price-cells';
import { toDayNumber } from '../../kernel/engine/dates';
import type { StayDates } from '../../stays/stay-dates';
import { withinLimits, type PriceLimits } from './search-params';

/** The stay kinds decided here: every kind but Flex. */
export type DocumentStay = Exclude<StayDates, { kind: 'flex' }>;

export const decidedInDocument = (stay: StayDates): stay is DocumentStay => stay.kind !== 'flex';

/** The fields read from `_source`: the availability ranges and the fixed stays' price cells. */
export const STAY_SOURCE = ['move_ins', 'minimum_keys', 'open_windows', 'move_outs', 'fixed_move_ins', 'price_lo', 'price_hi'] as const;

export type StayFields = Partial<Pick<HomeDocument, (typeof STAY_SOURCE)[number]>>;

/** `term` on a day range field: a range holds the day. */
const holdsDay = (ranges: readonly DayRangeValue[] | undefined, day: number): boolean =>
  (ranges ?? []).some((r) => r.gte <= day && (r.lt === undefined || day < r.lt));

/** `terms` on a key range field: a range holds one of the keys. */
const holdsKey = (ranges: readonly KeyRange[] | undefined, keys: readonly number[]): boolean =>
  (ranges ?? []).some((r) => keys.some((k) => r.gte <= k && k <= r.lte));

/** `range` with `relation: contains` over [start, end): a range holds every night. */
const holdsNights = (ranges: readonly DayRangeValue[] | undefined, start: number, end: number): boolean =>
  (ranges ?? []).some((r) => r.gte <= start && (r.lt === undefined || r.lt >= end));

/** availabilityClauses(stay) on one document. */
export function availableIn(doc: StayFields, stay: DocumentStay): boolean {
  switch (stay.kind) {
    case 'undated':
      return true;
    case 'start_only':
      return holdsDay(doc.fixed_move_ins, toDayNumber(stay.start_date));
    case 'fixed': {
      const start = toDayNumber(stay.start_date);
      const end = toDayNumber(stay.end_date);
      return (
        holdsDay(doc.move_ins, start) &&
        holdsKey(doc.minimum_keys, minimumKeys(stay.start_date, stay.nights)) &&
        holdsNights(doc.open_windows, start, end) &&
        holdsDay(doc.move_outs, end)
      );
    }
  }
}

/**
 * Whether the price limits admit the home, as the search decides: the indexed reference price for an
 * undated stay or a move-in date alone (exactPriceClauses); for a fixed stay, a band inside the limits,
 * or a band that meets them (or none) and the exact price `exact` inside them (the straddlers).
 */
export function priceAdmits(doc: StayFields & Partial<Pick<HomeDocument, 'reference_price'>>, stay: DocumentStay, limits: PriceLimits, exact: number): boolean {
  if (limits.min === null && limits.max === null) return true;
  if (stay.kind !== 'fixed') {
    const indexed = doc.reference_price?.with_discount;
    return typeof indexed === 'number' && withinLimits(indexed, limits);
  }
  const key = cellKeyOf(stay.start_date.slice(0, 7), nightCut(stay.nights));
  const low = doc.price_lo?.[key];
  const high = doc.price_hi?.[key];
  // No band (its lower bound absent): the home is a straddler, priced exactly.
  if (low === undefined) return withinLimits(exact, limits);
  const inside = (limits.min === null || low >= limits.min) && (limits.max === null || (high !== undefined && high <= limits.max));
  if (inside) return true;
  const meets = (limits.max === null || low <= limits.max) && (limits.min === null || (high !== undefined && high >= limits.min));
  return meets && withinLimits(exact, limits);
}
