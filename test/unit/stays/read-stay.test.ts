/**
 * The one stay reader (docs/contract.md, "Dates", "Limits", rules 1 and 3 of search_apartments_tool, and the
 * date rules of get_apartment_tool, get_quote_tool and search_properties_tool), under each tool's policy.
 */
import { ApiError } from '../../../services/kernel/errors';
import { addDays, addYears } from '../../../services/kernel/engine/dates';
import { readStay, type StayArgs } from '../../../services/stays/read-stay';
import { stayClip, stayRequestOf } from '../../../services/stays/stay-dates';
import { APARTMENT_STAY_POLICY, BUILDING_STAY_POLICY, QUOTE_STAY_POLICY, SEARCH_STAY_POLICY, type StayPolicy } from '../../../services/stays/stay-policies';

const today = '2027-01-10';
const d = (n: number) => addDays(today, n);
const readSearchStay = (args: StayArgs, on: string) => readStay(args, on, SEARCH_STAY_POLICY);
const refusedBy = (policy: StayPolicy) => (args: StayArgs) => {
  try {
    readStay(args, today, policy);
  } catch (err) {
    return (err as ApiError).code;
  }
  return null;
};
const refused = refusedBy(SEARCH_STAY_POLICY);

describe('readStay under the search policy', () => {
  it('reads no dates as undated, a move-in date alone, a fixed stay with its nights, Flex with or without a tier', () => {
    expect(readSearchStay({}, today)).toEqual({ kind: 'undated' });
    expect(readSearchStay({ start_date: d(3) }, today)).toEqual({ kind: 'start_only', start_date: d(3) });
    expect(readSearchStay({ start_date: d(3), end_date: d(48) }, today)).toEqual({ kind: 'fixed', start_date: d(3), end_date: d(48), nights: 45 });
    expect(readSearchStay({ start_date: d(3), end_date: 'indefinite', committed_nights: 270 }, today)).toEqual({
      kind: 'flex',
      start_date: d(3),
      committed_nights: 270,
    });
    // Rule 3: without committed_nights every apartment open to a Flex stay is listed.
    expect(readSearchStay({ start_date: d(3), end_date: 'indefinite' }, today)).toEqual({ kind: 'flex', start_date: d(3), committed_nights: null });
  });

  it('takes a move-in date from 7 days past to 365 days ahead, an end up to 3 years ahead', () => {
    expect(refused({ start_date: d(-7), end_date: d(3) })).toBeNull();
    expect(refused({ start_date: d(365) })).toBeNull();
    expect(refused({ start_date: d(1), end_date: addYears(today, 3) })).toBeNull();
    expect(refused({ start_date: d(-8) })).toBe('invalid_date');
    expect(refused({ start_date: d(366) })).toBe('invalid_date');
    expect(refused({ start_date: d(1), end_date: addDays(addYears(today, 3), 1) })).toBe('invalid_date');
  });

  it('refuses an end without a start, an end not after the start, unreal dates, and a tier without "indefinite"', () => {
    expect(refused({ end_date: d(3) })).toBe('invalid_parameters');
    expect(refused({ committed_nights: 180 })).toBe('invalid_parameters');
    expect(refused({ start_date: d(3), end_date: d(3) })).toBe('invalid_date');
    expect(refused({ start_date: '2027-02-30' })).toBe('invalid_date');
    expect(refused({ start_date: d(3), end_date: d(40), committed_nights: 180 })).toBe('invalid_parameters');
    expect(refused({ start_date: d(3), committed_nights: 180 })).toBe('invalid_parameters');
  });
});

describe("readStay under the other tools' policies", () => {
  const policies = { BUILDING_STAY_POLICY, APARTMENT_STAY_POLICY, QUOTE_STAY_POLICY };

  it('asks every tool but the apartment search for a Flex tier, and ignores a tier beside fixed dates', () => {
    for (const policy of Object.values(policies)) {
      expect(refusedBy(policy)({ start_date: d(3), end_date: 'indefinite' })).toBe('invalid_parameters');
      expect(readStay({ start_date: d(3), end_date: 'indefinite', committed_nights: 180 }, today, policy)).toEqual({
        kind: 'flex',
        start_date: d(3),
        committed_nights: 180,
      });
      expect(readStay({ start_date: d(3), end_date: d(40), committed_nights: 180 }, today, policy)).toEqual({
        kind: 'fixed',
        start_date: d(3),
        end_date: d(40),
        nights: 37,
      });
      expect(readStay({ committed_nights: 180 }, today, policy)).toEqual({ kind: 'undated' });
    }
  });

  it("keeps each tool's own horizon: a year for the building search, 3 years for the apartment and the quote", () => {
    expect(refusedBy(BUILDING_STAY_POLICY)({ start_date: d(366) })).toBe('invalid_date');
    expect(refusedBy(APARTMENT_STAY_POLICY)({ start_date: d(366) })).toBeNull();
    expect(refusedBy(QUOTE_STAY_POLICY)({ start_date: d(366), end_date: d(400) })).toBeNull();
    for (const policy of Object.values(policies)) {
      expect(refusedBy(policy)({ start_date: addDays(addYears(today, 3), 1) })).toBe('invalid_date');
      expect(refusedBy(policy)({ start_date: d(3), end_date: addDays(addYears(today, 3), 1) })).toBe('invalid_date');
      expect(refusedBy(policy)({ end_date: d(3) })).toBe('invalid_parameters');
    }
  });

  it('lets a quote start in the past (it is then not bookable), but not a search or the apartment read', () => {
    expect(refusedBy(QUOTE_STAY_POLICY)({ start_date: d(-30), end_date: d(10) })).toBeNull();
    expect(refusedBy(APARTMENT_STAY_POLICY)({ start_date: d(-8) })).toBe('invalid_date');
    expect(refusedBy(BUILDING_STAY_POLICY)({ start_date: d(-8) })).toBe('invalid_date');
  });
});

describe('stayRequestOf and stayClip', () => {
  it('give the engine a fixed or Flex stay only, and clip a calendar to the stay (open-ended for a move-in date alone)', () => {
    const fixed = readStay({ start_date: d(3), end_date: d(40) }, today, QUOTE_STAY_POLICY);
    expect(stayRequestOf(fixed)).toEqual({ kind: 'fixed', start_date: d(3), end_date: d(40) });
    expect(stayClip(fixed)).toEqual({ start_date: d(3), end_date: d(40) });
    const flex = readStay({ start_date: d(3), end_date: 'indefinite', committed_nights: 90 }, today, QUOTE_STAY_POLICY);
    expect(stayRequestOf(flex)).toEqual({ kind: 'flex', start_date: d(3), committed_nights: 90 });
    expect(stayClip(flex)).toEqual({ start_date: d(3), end_date: d(93) });
    expect(stayRequestOf({ kind: 'start_only', start_date: d(3) })).toBeNull();
    expect(stayClip({ kind: 'start_only', start_date: d(3) })).toEqual({ start_date: d(3), end_date: null });
    expect(stayClip({ kind: 'undated' })).toBeUndefined();
  });
});
