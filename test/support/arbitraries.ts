/**
 * Test inventory: `makeHome(overrides)` is a plain deterministic home for example tests;
 * `arbHome(today)` and `arbStay(home, today)` are fast-check arbitraries of valid homes and stays.
 */
import fc from 'fast-check';
import type {
  BookingRange,
  FlexTier,
  HomeRecord,
  IsoDate,
  LengthOfStayDiscount,
  MinimumStayRule,
  SeasonalDiscount,
  SpecialOffer,
} from '../../services/kernel/inventory/records';
import { addDays } from '../../services/kernel/engine/dates';
import type { StayRequest } from '../../services/kernel/engine/types';

const CREATED = new Date('2026-01-01T00:00:00Z');

/** An open range that allows move-in and move-out. */
export function openRange(start_date: IsoDate, end_date: IsoDate | null): BookingRange {
  return { start_date, end_date, open_for_occupancy: true, move_in_allowed: true, move_out_allowed: true, unbookable_reason: null };
}

/** A closed range with its reason. */
export function closedRange(start_date: IsoDate, end_date: IsoDate | null, reason = 'reserved'): BookingRange {
  return { start_date, end_date, open_for_occupancy: false, move_in_allowed: false, move_out_allowed: false, unbookable_reason: reason };
}

/** A home open from 2027-01-01 for a year, $150/night, $3,000/month, no fees or discounts. */
export function makeHome(overrides: Partial<HomeRecord> = {}): HomeRecord {
  return {
    _id: 'home-000001',
    slug: 'maple-court-101',
    name: 'Maple Court 101',
    property_id: 'prop-000001',
    market_slug: 'austin',
    city_slug: 'austin',
    neighborhood_id: 'nbh-0001',
    unit_number: '101',
    floor: 1,
    bedrooms: 1,
    bathrooms: 1,
    sqft: 650,
    amenities: ['Dishwasher'],
    has_parking: false,
    cats_allowed: true,
    dogs_allowed: true,
    laundry_type: 'In Unit',
    air_conditioned: true,
    has_balcony: false,
    self_check_in: true,
    photos: [],
    nightly_rate_cents: 15_000,
    monthly_rate_cents: 300_000,
    fees: { cleaning_fee_cents: 0, monthly_service_fee_cents: 0, pet_fee_cents: 0, monthly_pet_rent_cents: 0 },
    seasonal_discounts: [],
    length_of_stay_discounts: [],
    special_offer: null,
    flex_eligible: true,
    flex_tiers: [
      { committed_nights: 180, monthly_rate_cents: 280_000 },
      { committed_nights: 365, monthly_rate_cents: 260_000 },
    ],
    minimum_nightly_stay: 1,
    minimum_stay_rules: [],
    calendar: [openRange('2027-01-01', '2028-01-01')],
    available_from: null,
    must_vacate_by: null,
    published: true,
    created_at: CREATED,
    updated_at: CREATED,
    deleted_at: null,
    ...overrides,
  };
}

const CALENDAR_DAYS = 550;

type Flags = Pick<BookingRange, 'open_for_occupancy' | 'move_in_allowed' | 'move_out_allowed' | 'unbookable_reason'>;

const arbFlags: fc.Arbitrary<Flags> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ open_for_occupancy: true, move_in_allowed: true, move_out_allowed: true, unbookable_reason: null }) },
  { weight: 1, arbitrary: fc.constant({ open_for_occupancy: true, move_in_allowed: true, move_out_allowed: false, unbookable_reason: null }) },
  { weight: 1, arbitrary: fc.constant({ open_for_occupancy: true, move_in_allowed: false, move_out_allowed: true, unbookable_reason: null }) },
  { weight: 1, arbitrary: fc.constant({ open_for_occupancy: true, move_in_allowed: false, move_out_allowed: false, unbookable_reason: null }) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom('reserved', 'owner_hold', 'maintenance', 'turnover')
      .map((reason) => ({ open_for_occupancy: false, move_in_allowed: false, move_out_allowed: false, unbookable_reason: reason })),
  },
);

/** A 1-day open segment that only lets a stay start, or only lets one end. */
const arbSingleDayFlags: fc.Arbitrary<Flags> = fc.constantFrom(
  { open_for_occupancy: true, move_in_allowed: true, move_out_allowed: false, unbookable_reason: null },
  { open_for_occupancy: true, move_in_allowed: false, move_out_allowed: true, unbookable_reason: null },
);

/** Sorted, contiguous segments over ~18 months from up to 30 days before today; 1-day move-in-only/move-out-only segments included. */
function arbCalendar(today: IsoDate): fc.Arbitrary<BookingRange[]> {
  const cut = fc.integer({ min: 1, max: CALENDAR_DAYS - 2 });
  // Calm calendars (long open runs, where Flex stays fit) as well as busy ones of up to 30 segments.
  const cuts = fc.oneof(fc.uniqueArray(cut, { maxLength: 3 }), fc.uniqueArray(cut, { maxLength: 23, size: 'max' }));
  const singleDays = fc.uniqueArray(fc.integer({ min: 1, max: CALENDAR_DAYS - 3 }), { maxLength: 3 });
  return fc
    .record({ lead: fc.integer({ min: 0, max: 30 }), cuts, singleDays, openEnded: fc.boolean() })
    .chain(({ lead, cuts: c, singleDays: s, openEnded }) => {
      const bounds = [0, ...new Set([...c, ...s.flatMap((d) => [d, d + 1])])].sort((a, b) => a - b);
      bounds.push(CALENDAR_DAYS);
      const count = bounds.length - 1;
      const first = addDays(today, -lead);
      const flags = fc.array(arbFlags, { minLength: count, maxLength: count });
      const singles = fc.array(arbSingleDayFlags, { minLength: count, maxLength: count });
      return fc.tuple(flags, singles).map(([f, single]) =>
        f.map((flag, i) => ({
          start_date: addDays(first, bounds[i]),
          end_date: openEnded && i === count - 1 ? null : addDays(first, bounds[i + 1]),
          ...(s.includes(bounds[i]) && bounds[i + 1] === bounds[i] + 1 ? single[i] : flag),
        })),
      );
    });
}

/** A `[start, end)` period inside the calendar's span, `length` days long at most. */
function arbPeriod(today: IsoDate, maxLength: number): fc.Arbitrary<{ start_date: IsoDate; end_date: IsoDate }> {
  return fc
    .record({ offset: fc.integer({ min: -30, max: CALENDAR_DAYS }), length: fc.integer({ min: 1, max: maxLength }) })
    .map(({ offset, length }) => ({ start_date: addDays(today, offset), end_date: addDays(today, offset + length) }));
}

function arbRules(today: IsoDate): fc.Arbitrary<MinimumStayRule[]> {
  const rule = fc
    .record({ period: arbPeriod(today, 120), min: fc.integer({ min: 1, max: 120 }) })
    .map(({ period, min }) => ({ ...period, minimum_nightly_stay: min }));
  return fc.array(rule, { maxLength: 3 });
}

function arbSeasonal(today: IsoDate): fc.Arbitrary<SeasonalDiscount[]> {
  const discount = fc
    .record({ period: arbPeriod(today, 90), percent: fc.integer({ min: 1, max: 40 }) })
    .map(({ period, percent }) => ({ ...period, percent, label: `${percent}% off` }));
  return fc.array(discount, { maxLength: 3 });
}

const arbLengthOfStay: fc.Arbitrary<LengthOfStayDiscount[]> = fc.array(
  fc.record({ min_nights: fc.integer({ min: 7, max: 365 }), percent: fc.integer({ min: 1, max: 30 }) }),
  { maxLength: 3 },
);

function arbOffer(today: IsoDate): fc.Arbitrary<SpecialOffer | null> {
  const offer = fc
    .record({ period: arbPeriod(today, 60), percent: fc.integer({ min: 1, max: 25 }) })
    .map(({ period, percent }) => ({ ...period, percent, label: `Move in by ${period.end_date}` }));
  return fc.option(offer, { nil: null });
}

/** Flex tiers 180/270/365 with rates below the monthly rate, usually cheaper the longer the commitment. */
function arbFlexTiers(monthly: number): fc.Arbitrary<FlexTier[]> {
  return fc
    .record({
      nights: fc.subarray([180, 270, 365]),
      cuts: fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 3, maxLength: 3 }),
    })
    .map(({ nights, cuts }) => nights.map((n, i) => ({ committed_nights: n, monthly_rate_cents: Math.round((monthly * (100 - cuts[i])) / 100) })));
}

/** A date `min..max` days from today about one time in four, else null. */
function arbDateOption(today: IsoDate, min: number, max: number): fc.Arbitrary<IsoDate | null> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.integer({ min, max }).map((n) => addDays(today, n)) });
}

export function arbHome(today: IsoDate): fc.Arbitrary<HomeRecord> {
  return fc
    .record({
      nightly: fc.integer({ min: 5_000, max: 60_000 }),
      monthly: fc.integer({ min: 80_000, max: 1_500_000 }),
      fees: fc.record({
        cleaning_fee_cents: fc.integer({ min: 0, max: 40_000 }),
        monthly_service_fee_cents: fc.integer({ min: 0, max: 20_000 }),
        pet_fee_cents: fc.integer({ min: 0, max: 50_000 }),
        monthly_pet_rent_cents: fc.integer({ min: 0, max: 10_000 }),
      }),
      calendar: arbCalendar(today),
      floor: fc.oneof(fc.integer({ min: 1, max: 45 }), fc.constantFrom(1, 30, 200)),
      rules: arbRules(today),
      seasonal: arbSeasonal(today),
      lengthOfStay: arbLengthOfStay,
      offer: arbOffer(today),
      flexEligible: fc.boolean(),
      cats: fc.boolean(),
      dogs: fc.boolean(),
      availableFrom: arbDateOption(today, -10, 200),
      mustVacateBy: arbDateOption(today, 30, 600),
    })
    .chain((h) =>
      arbFlexTiers(h.monthly).map((tiers) =>
        makeHome({
          nightly_rate_cents: h.nightly,
          monthly_rate_cents: h.monthly,
          fees: h.fees,
          calendar: h.calendar,
          minimum_nightly_stay: h.floor,
          minimum_stay_rules: h.rules,
          seasonal_discounts: h.seasonal,
          length_of_stay_discounts: h.lengthOfStay,
          special_offer: h.offer,
          flex_eligible: h.flexEligible,
          flex_tiers: tiers,
          cats_allowed: h.cats,
          dogs_allowed: h.dogs,
          available_from: h.availableFrom,
          must_vacate_by: h.mustVacateBy,
        }),
      ),
    );
}

/** A start date near the home's calendar: often on a range boundary, sometimes in the past or beyond. */
function arbStart(home: HomeRecord, today: IsoDate): fc.Arbitrary<IsoDate> {
  const boundaries = home.calendar.map((r) => r.start_date);
  return fc.oneof(
    fc.integer({ min: -5, max: CALENDAR_DAYS + 20 }).map((n) => addDays(today, n)),
    fc.record({ date: fc.constantFrom(...boundaries), shift: fc.integer({ min: -1, max: 3 }) }).map(({ date, shift }) => addDays(date, shift)),
  );
}

/** A fixed stay (1 to 400 nights, biased to short and month-ish stays) or a Flex stay on a 180/270/365 tier. */
export function arbStay(home: HomeRecord, today: IsoDate): fc.Arbitrary<StayRequest> {
  const nights = fc.oneof(fc.integer({ min: 1, max: 45 }), fc.integer({ min: 1, max: 400 }), fc.constantFrom(29, 30, 31, 60, 90));
  const fixed = fc
    .record({ start: arbStart(home, today), nights })
    .map(({ start, nights: n }): StayRequest => ({ kind: 'fixed', start_date: start, end_date: addDays(start, n) }));
  const flex = fc
    .record({ start: arbStart(home, today), committed: fc.constantFrom(180, 270, 365, ...home.flex_tiers.map((t) => t.committed_nights)) })
    .map(({ start, committed }): StayRequest => ({ kind: 'flex', start_date: start, committed_nights: committed }));
  return fc.oneof({ weight: 3, arbitrary: fixed }, { weight: 1, arbitrary: flex });
}

/**
 * A day, a home and `count` fixed stays moving in within `horizon` days of it, of lengths that
 * cross the price bands' cuts (the price bands' and the flat index's property tests).
 */
export function arbHomeWithFixedStays(
  count: number,
  horizon: number,
): fc.Arbitrary<{ today: IsoDate; home: HomeRecord; stays: Array<Extract<StayRequest, { kind: 'fixed' }>> }> {
  return fc
    .integer({ min: 0, max: 365 })
    .map((n) => addDays('2026-06-01', n))
    .chain((today: IsoDate) =>
      arbHome(today).chain((home) =>
        fc
          .array(
            fc.record({
              offset: fc.integer({ min: 0, max: horizon - 1 }),
              nights: fc.oneof(fc.integer({ min: 1, max: 45 }), fc.integer({ min: 1, max: 400 }), fc.constantFrom(29, 30, 31, 90, 365)),
            }),
            { minLength: count, maxLength: count },
          )
          .map((stays) => ({
            today,
            home,
            stays: stays.map(({ offset, nights }): Extract<StayRequest, { kind: 'fixed' }> => {
              const start = addDays(today, offset);
              return { kind: 'fixed', start_date: start, end_date: addDays(start, nights) };
            }),
          })),
      ),
    );
}
