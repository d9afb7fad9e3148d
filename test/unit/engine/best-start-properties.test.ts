/**
 * A window of move-in dates (docs/contract.md, "A window of move-in dates"): for random homes,
 * windows and lengths, the stay bestStay chooses is the cheapest start whose stay the quote says is
 * available (within the price limits when given), the earliest among equals, found by brute force
 * over every start of the window; and a home has no chosen stay exactly when no start fits. Twice:
 * with the starts checkStay accepts, and with the starts the search reads from the index document
 * (the per-start stay clauses of search/shared/window-clauses.ts, read as Elasticsearch reads them),
 * priced from the document's pricing inputs.
 */
import fc from 'fast-check';
import { toHomeDocument } from '../../../indexer/document';
import { bestStay, pickStart, stayOfLength, type StayLength } from '../../../services/kernel/engine/best-start';
import { withBuildingRules } from '../../../services/kernel/engine/building-rules';
import { addDays, daysBetween, toDayNumber } from '../../../services/kernel/engine/dates';
import { priceStay } from '../../../services/kernel/engine/pricing';
import { checkStay } from '../../../services/kernel/engine/stay-check';
import type { BookingRange, HomeRecord, IsoDate } from '../../../services/kernel/inventory/records';
import type { DayRangeValue, HomeDocument } from '../../../services/kernel/store/home-document';
import { minimumKeys } from '../../../services/kernel/store/minimum-keys';
import { arbHome, closedRange, openRange } from '../../support/arbitraries';
import { makeMarket, makeProperty } from '../../support/records';
import { expectCoverage, runs } from '../../support/property-runs';

const NO_PETS = { cats: 0, dogs: 0 };
const property = makeProperty();
const market = makeMarket();

interface Case {
  today: IsoDate;
  home: HomeRecord;
  earliest: IsoDate;
  latest: IsoDate;
  length: StayLength;
  limits: { min: number | null; max: number | null };
}

/** A calm calendar (a few closed stretches in a long open run), where windows of long stays fit: arbHome's are mostly busy. */
function arbCalmCalendar(today: IsoDate): fc.Arbitrary<BookingRange[]> {
  return fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 6 }).chain((cuts) => {
    const bounds = [-30, ...cuts.sort((a, b) => a - b), 540];
    return fc.array(fc.boolean(), { minLength: bounds.length - 1, maxLength: bounds.length - 1 }).map((closed) =>
      bounds.slice(1).map((end, i) => {
        const from = addDays(today, bounds[i]);
        // Every other stretch may be closed; the others are open.
        return i % 2 === 1 && closed[i] ? closedRange(from, addDays(today, end)) : openRange(from, addDays(today, end));
      }),
    );
  });
}

const arbCase: fc.Arbitrary<Case> = fc
  .integer({ min: 0, max: 365 })
  .map((n) => addDays('2026-06-01', n))
  .chain((today) =>
    fc.tuple(arbHome(today), fc.option(arbCalmCalendar(today), { nil: null, freq: 3 })).chain(([busy, calm]) =>
      fc.constant(calm === null ? busy : { ...busy, calendar: calm, flex_eligible: busy.flex_eligible || busy.flex_tiers.length > 0 }).chain((home) =>
        fc
          .record({
            offset: fc.integer({ min: -7, max: 120 }),
            span: fc.integer({ min: 0, max: 60 }),
            length: fc.oneof(
              {
                weight: 3,
                arbitrary: fc
                  .oneof(
                    { weight: 3, arbitrary: fc.integer({ min: 0, max: 60 }).map((n) => home.minimum_nightly_stay + n) },
                    fc.integer({ min: 1, max: 400 }),
                    fc.constantFrom(30, 90),
                  )
                  .map((nights): StayLength => ({ kind: 'fixed', nights })),
              },
              {
                weight: 1,
                // Mostly a tier the home offers (a Flex-eligible one), sometimes one it does not.
                arbitrary: fc
                  .constantFrom(180, 270, 365, ...home.flex_tiers.map((t) => t.committed_nights), ...home.flex_tiers.map((t) => t.committed_nights))
                  .map((committed_nights): StayLength => ({ kind: 'flex', committed_nights })),
              },
            ),
            // Limits in the range of nightly and monthly prices, each in about one case of three.
            min: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, fc.integer({ min: 0, max: 600 }), fc.integer({ min: 500, max: 15_000 })),
            max: fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, fc.integer({ min: 50, max: 800 }), fc.integer({ min: 1_000, max: 20_000 })),
          })
          .map(({ offset, span, length, min, max }) => ({
            today,
            home,
            earliest: addDays(today, offset),
            latest: addDays(today, offset + span),
            length,
            limits: { min, max: max === null || min === null || max >= min ? max : min },
          })),
      ),
    ),
  );

const fits = (limits: Case['limits']) => (amount: number) => (limits.min === null || amount >= limits.min) && (limits.max === null || amount <= limits.max);

function startsOf(c: Case): IsoDate[] {
  const starts: IsoDate[] = [];
  for (let d = c.earliest < c.today ? c.today : c.earliest; d <= c.latest; d = addDays(d, 1)) starts.push(d);
  return starts;
}

/** Brute force: every start's quote (checkStay, then priceStay as get_quote_tool prices it). */
function bruteForce(c: Case, home: HomeRecord): { start: IsoDate; price: number } | null {
  let best: { start: IsoDate; price: number } | null = null;
  for (const start of startsOf(c)) {
    const stay = stayOfLength(start, c.length);
    if (!checkStay(home, stay, NO_PETS, c.today).available) continue;
    const price = priceStay(home, stay, NO_PETS).display_price_with_discount;
    if (!fits(c.limits)(price)) continue;
    if (best === null || price < best.price) best = { start, price };
  }
  return best;
}

const holds = (r: DayRangeValue, day: number): boolean => r.gte <= day && (r.lt === undefined || day < r.lt);

/** What one start's clauses ask of the document (search/shared/stay-clauses.ts availabilityClauses), as Elasticsearch answers them. */
function indexAdmits(doc: HomeDocument, start: IsoDate, length: StayLength): boolean {
  const day = toDayNumber(start);
  if (length.kind === 'flex') {
    return doc.flex_stays.some((f) => f.committed_nights === length.committed_nights && f.move_in.some((r) => holds(r, day)));
  }
  const end = day + length.nights;
  const keys = minimumKeys(start, length.nights);
  return (
    doc.move_ins.some((r) => holds(r, day)) &&
    doc.minimum_keys.some((r) => keys.some((k) => r.gte <= k && k <= r.lte)) &&
    doc.open_windows.some((w) => w.gte <= day && (w.lt === undefined || end <= w.lt)) &&
    doc.move_outs.some((r) => holds(r, end))
  );
}

describe('bestStay (properties over random homes, windows and lengths)', () => {
  it('chooses the cheapest start the quote makes available within the limits, the earliest among equals; none only when no start fits', () => {
    let chosen = 0;
    let later = 0;
    let none = 0;
    fc.assert(
      fc.property(arbCase, (c) => {
        const home = withBuildingRules(c.home, property);
        const bookable = startsOf(c).filter((s) => checkStay(home, stayOfLength(s, c.length), NO_PETS, c.today).available);
        const got = bestStay(home, c.length, bookable, fits(c.limits));
        const want = bruteForce(c, home);
        expect(got === null ? null : { start: got.stay.start_date, price: got.price.display_price_with_discount }).toEqual(want);
        if (got) {
          chosen += 1;
          expect(got.stay).toEqual(stayOfLength(got.stay.start_date, c.length));
          if (got.stay.start_date !== bookable[0]) later += 1;
        } else none += 1;
      }),
      { numRuns: runs(800) },
    );
    // Enough of each outcome: a stay chosen, one chosen after the first bookable start, none at all. A later start is
    // the rarest (about 20-40 of 800 cases, by the seed): the bound is where a random seed never fails it.
    expectCoverage(() => expect({ chosen: chosen > 120, later: later > 8, none: none > 100 }).toEqual({ chosen: true, later: true, none: true }));
  });

  it('chooses the same stay from the starts the index document admits, priced from its pricing inputs', () => {
    let chosen = 0;
    fc.assert(
      fc.property(arbCase, (c) => {
        const doc = toHomeDocument(c.home, property, market, c.today);
        const bookable = startsOf(c).filter((s) => indexAdmits(doc, s, c.length));
        const got = bestStay(doc.pricing, c.length, bookable, fits(c.limits));
        const want = bruteForce(c, withBuildingRules(c.home, property));
        expect(got === null ? null : { start: got.stay.start_date, price: got.price.display_price_with_discount }).toEqual(want);
        if (got) chosen += 1;
      }),
      { numRuns: runs(800) },
    );
    expectCoverage(() => expect(chosen).toBeGreaterThan(120));
  });
});

describe('pickStart', () => {
  const amount = (p: number) => p;
  const all = () => true;

  it('takes the lowest price, the earliest start among equals, whatever the order of the candidates', () => {
    const candidates = [
      { start: '2027-01-05', price: 100 },
      { start: '2027-01-03', price: 90 },
      { start: '2027-01-01', price: 95 },
      { start: '2027-01-02', price: 90 },
    ];
    expect(pickStart(candidates, amount, all)).toEqual({ start: '2027-01-02', price: 90 });
    expect(pickStart([...candidates].reverse(), amount, all)).toEqual({ start: '2027-01-02', price: 90 });
  });

  it('skips starts without a stay and prices outside the limits; none when nothing is left', () => {
    const candidates = [
      { start: '2027-01-01', price: null },
      { start: '2027-01-02', price: 80 },
      { start: '2027-01-03', price: 120 },
    ];
    expect(pickStart(candidates, amount, (a) => a >= 100)).toEqual({ start: '2027-01-03', price: 120 });
    expect(pickStart(candidates, amount, (a) => a > 200)).toBeNull();
    expect(pickStart([], amount, all)).toBeNull();
  });

  it('a window of one length: a fixed stay of n nights from each start, or the Flex tier', () => {
    expect(stayOfLength('2027-01-30', { kind: 'fixed', nights: 3 })).toEqual({ kind: 'fixed', start_date: '2027-01-30', end_date: '2027-02-02' });
    expect(daysBetween('2027-01-30', '2027-02-02')).toBe(3);
    expect(stayOfLength('2027-01-30', { kind: 'flex', committed_nights: 180 })).toEqual({ kind: 'flex', start_date: '2027-01-30', committed_nights: 180 });
  });
});
