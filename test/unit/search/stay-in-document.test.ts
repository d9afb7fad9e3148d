/**
 * The stay's clauses decided on one document (services/search/shared/stay-in-document.ts) give the
 * answer the search's clauses give: the range fields as Elasticsearch reads them, the reference price
 * as indexed, a fixed stay's band inside the limits or a straddler's exact price. (That the fields
 * admit exactly the stays checkStay books: test/unit/indexer/flat-availability.test.ts.)
 */
import { availableIn, priceAdmits } from '../../../services/search/shared/stay-in-document';
import { toDayNumber } from '../../../services/kernel/engine/dates';
import { minimumKeys } from '../../../services/kernel/store/minimum-keys';
import { cellKeyOf, nightCut } from '../../../services/kernel/store/price-cells';

const day = toDayNumber;
const fixed = { kind: 'fixed', start_date: '2027-03-01', end_date: '2027-04-15', nights: 45 } as const;
const key = minimumKeys('2027-03-01', 45)[0]!;
const open = {
  move_ins: [{ gte: day('2027-02-20'), lt: day('2027-03-05') }],
  minimum_keys: [{ gte: key, lte: key }],
  open_windows: [{ gte: day('2027-02-01') }],
  move_outs: [{ gte: day('2027-04-15'), lt: day('2027-04-16') }],
};
const cell = cellKeyOf('2027-03', nightCut(45));

describe('availability decided on the document', () => {
  it('admits a fixed stay when its move-in, a minimum key, a window holding every night and its move-out are held', () => {
    expect(availableIn(open, fixed)).toBe(true);
  });

  it('refuses it when any one of the four is missing', () => {
    expect(availableIn({ ...open, move_ins: [{ gte: day('2027-03-02'), lt: day('2027-03-05') }] }, fixed)).toBe(false);
    expect(availableIn({ ...open, minimum_keys: [{ gte: key + 1, lte: key + 9 }] }, fixed)).toBe(false);
    expect(availableIn({ ...open, move_outs: [] }, fixed)).toBe(false);
    expect(availableIn({ ...open, move_outs: undefined }, fixed)).toBe(false);
  });

  it('needs one window to hold every night: a window ending on the move-out day does, one ending a day earlier does not', () => {
    expect(availableIn({ ...open, open_windows: [{ gte: day('2027-03-01'), lt: day('2027-04-15') }] }, fixed)).toBe(true);
    expect(availableIn({ ...open, open_windows: [{ gte: day('2027-03-01'), lt: day('2027-04-14') }] }, fixed)).toBe(false);
    // Two windows that meet are two windows: the stay is in neither.
    const split = [
      { gte: day('2027-02-01'), lt: day('2027-03-20') },
      { gte: day('2027-03-20'), lt: day('2027-05-01') },
    ];
    expect(availableIn({ ...open, open_windows: split }, fixed)).toBe(false);
  });

  it('reads a range without an end as open-ended and its end as excluded', () => {
    expect(availableIn({ fixed_move_ins: [{ gte: day('2027-01-01') }] }, { kind: 'start_only', start_date: '2030-01-01' })).toBe(true);
    expect(availableIn({ fixed_move_ins: [{ gte: day('2027-01-01'), lt: day('2027-03-01') }] }, { kind: 'start_only', start_date: '2027-03-01' })).toBe(false);
  });

  it('asks nothing of an undated search', () => {
    expect(availableIn({}, { kind: 'undated' })).toBe(true);
  });
});

describe('price limits decided on the document', () => {
  const limits = { min: 2000, max: 3000 };
  const banded = (lo: number, hi: number) => ({ price_lo: { [cell]: lo }, price_hi: { [cell]: hi } });

  it('admits a fixed stay whose band lies inside the limits, whatever its exact price', () => {
    expect(priceAdmits(banded(2100, 2900), fixed, limits, 2500)).toBe(true);
  });

  it('prices a straddler exactly: admitted when its exact price passes', () => {
    expect(priceAdmits(banded(1800, 2600), fixed, limits, 2500)).toBe(true);
    expect(priceAdmits(banded(1800, 2600), fixed, limits, 1900)).toBe(false);
  });

  it('refuses a home whose band misses the limits, and prices one without a band exactly', () => {
    expect(priceAdmits(banded(3100, 3600), fixed, limits, 2500)).toBe(false);
    expect(priceAdmits({}, fixed, limits, 2500)).toBe(true);
    expect(priceAdmits({}, fixed, limits, 3500)).toBe(false);
  });

  it('compares an undated search on the indexed reference price, not the price computed for the card', () => {
    const doc = { reference_price: { start_date: '2027-01-07', end_date: '2027-02-06', with_discount: 2950, without_discount: 3300 } };
    expect(priceAdmits(doc, { kind: 'undated' }, limits, 3100)).toBe(true);
    expect(priceAdmits(doc, { kind: 'undated' }, { min: 3000, max: null }, 3100)).toBe(false);
    expect(priceAdmits({}, { kind: 'undated' }, limits, 2500)).toBe(false);
  });

  it('admits every home when no limit is given', () => {
    expect(priceAdmits({}, fixed, { min: null, max: null }, 99_999)).toBe(true);
  });
});
