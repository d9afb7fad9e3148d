/**
 * The stay spans (services/kernel/store/stay-spans.ts): the nested rectangles toHomeDocument writes,
 * read the way Elasticsearch reads the window query (`intersects` on two `integer_range` fields, a
 * `term` on the third), admit a home for a window of move-in dates and a length if and only if
 * checkStay can book a stay of that length from one of the window's days, and the starts they give are
 * exactly those days.
 */
import fc from 'fast-check';
import { toHomeDocument } from '../../../indexer/document';
import { START_HORIZON_DAYS } from '../../../indexer/price-bands';
import { addDays, toDayNumber } from '../../../services/kernel/engine/dates';
import { withBuildingRules } from '../../../services/kernel/engine/building-rules';
import { checkStay } from '../../../services/kernel/engine/stay-check';
import { decodeSpans, spanCardStarts, startsIn, type ClosedRange, type StaySpan } from '../../../services/kernel/store/stay-spans';
import { arbHomeWithFixedStays } from '../../support/arbitraries';
import { makeMarket, makeProperty } from '../../support/records';

const NO_PETS = { cats: 0, dogs: 0 };
const property = makeProperty();
const market = makeMarket();

const upper = (r: ClosedRange): number => r.lte ?? Infinity;
/** `intersects` of an `integer_range` value with [from, to]. */
const meets = (r: ClosedRange, from: number, to: number): boolean => r.gte <= to && upper(r) >= from;
/** What the window query asks of one nested span (search/shared/window-clauses.ts, `spanClause`). */
const matches = (s: StaySpan, first: number, last: number, nights: number): boolean =>
  meets(s.starts, first, last) && meets(s.ends, first + nights, last + nights) && s.nights.gte <= nights && nights <= upper(s.nights);

const arbCase = fc.tuple(arbHomeWithFixedStays(6, START_HORIZON_DAYS), fc.array(fc.integer({ min: 0, max: 61 }), { minLength: 6, maxLength: 6 }));

describe('stay spans', () => {
  it('admit a window of move-in dates exactly when checkStay can book a stay of its length from one of its days, and give exactly those days', () => {
    let admitted = 0;
    let refused = 0;
    let partial = 0;
    fc.assert(
      fc.property(arbCase, ([{ today, home, stays }, widths]) => {
        const doc = toHomeDocument(home, property, market, today);
        const ruled = withBuildingRules(home, property);
        // The spans a hit carries (its `span_card` doc value) are the nested ones.
        expect(decodeSpans(doc.span_card)).toEqual(doc.stay_spans);
        stays.forEach((stay, i) => {
          const nights = toDayNumber(stay.end_date) - toDayNumber(stay.start_date);
          const first = toDayNumber(stay.start_date);
          const last = first + widths[i];
          const bookable: number[] = [];
          for (let d = 0; d <= widths[i]; d++) {
            const start = addDays(stay.start_date, d);
            if (checkStay(ruled, { kind: 'fixed', start_date: start, end_date: addDays(start, nights) }, NO_PETS, today).available) bookable.push(first + d);
          }
          const hit = doc.stay_spans.filter((s) => matches(s, first, last, nights));
          expect(hit.length > 0).toBe(bookable.length > 0);
          const given = new Set<number>();
          for (const s of doc.stay_spans) {
            const run = startsIn(s, first, last, nights);
            // The query and the starts agree span by span.
            expect(run !== null).toBe(matches(s, first, last, nights));
            if (run) for (let d = run.from; d <= run.to; d++) given.add(d);
          }
          expect([...given].sort((a, b) => a - b)).toEqual(bookable);
          // Read straight from the doc value: over the window, and over it less its middle day (two runs).
          expect(spanCardStarts(doc.span_card, [{ first, last }], nights)).toEqual(bookable);
          const middle = first + Math.floor(widths[i] / 2);
          const runs = [
            { first, last: middle - 1 },
            { first: middle + 1, last },
          ].filter((r) => r.first <= r.last);
          expect(spanCardStarts(doc.span_card, runs, nights)).toEqual(bookable.filter((d) => d !== middle));
          if (bookable.length === 0) refused += 1;
          else admitted += 1;
          if (bookable.length > 0 && bookable.length <= widths[i]) partial += 1;
        });
      }),
      { numRuns: 500 },
    );
    // Enough of each outcome: admitted, refused, and admitted from some of the window's days only.
    expect({ admitted: admitted > 300, refused: refused > 300, partial: partial > 100 }).toEqual({ admitted: true, refused: true, partial: true });
  });

  it('writes no span that no stay can come from', () => {
    fc.assert(
      fc.property(arbHomeWithFixedStays(1, START_HORIZON_DAYS), ({ today, home }) => {
        for (const s of toHomeDocument(home, property, market, today).stay_spans) {
          expect(s.nights.gte).toBeGreaterThanOrEqual(1);
          expect(s.nights.gte).toBeLessThanOrEqual(upper(s.nights));
          expect(s.starts.gte).toBeLessThanOrEqual(upper(s.starts));
          // Some move-out of the span comes after some move-in of it by at least its fewest nights.
          expect(upper(s.ends) - s.starts.gte).toBeGreaterThanOrEqual(s.nights.gte);
        }
      }),
      { numRuns: 300 },
    );
  });
});
