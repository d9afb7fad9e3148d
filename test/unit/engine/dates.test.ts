import fc from 'fast-check';
import {
  addDays,
  addMonths,
  addYears,
  compareDates,
  daysBetween,
  fromDayNumber,
  maxDate,
  minDate,
  parseIsoDate,
  toDayNumber,
  todayIso,
  weekday,
} from '../../../services/kernel/engine/dates';
import { runs } from '../../support/property-runs';

describe('parseIsoDate', () => {
  it('accepts real calendar dates, leap days included', () => {
    expect(parseIsoDate('2027-01-31')).toBe('2027-01-31');
    expect(parseIsoDate('2028-02-29')).toBe('2028-02-29');
    expect(parseIsoDate('2000-02-29')).toBe('2000-02-29');
  });

  it('refuses dates that do not exist', () => {
    expect(parseIsoDate('2026-02-30')).toBeNull();
    expect(parseIsoDate('2027-02-29')).toBeNull();
    expect(parseIsoDate('1900-02-29')).toBeNull();
    expect(parseIsoDate('2027-13-01')).toBeNull();
    expect(parseIsoDate('2027-04-31')).toBeNull();
    expect(parseIsoDate('2027-00-10')).toBeNull();
  });

  it('refuses anything but strict YYYY-MM-DD', () => {
    for (const s of ['2027-1-05', '2027-01-5', '27-01-05', '2027/01/05', '2027-01-05T00:00:00Z', ' 2027-01-05', '', 'indefinite']) {
      expect(parseIsoDate(s)).toBeNull();
    }
  });
});

describe('date arithmetic', () => {
  it('steps across month, year and leap-day boundaries', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2027-03-01', -1)).toBe('2027-02-28');
    expect(addDays('2027-01-01', 365)).toBe('2028-01-01');
    expect(daysBetween('2027-01-01', '2028-01-01')).toBe(365);
    expect(daysBetween('2028-01-01', '2029-01-01')).toBe(366);
    expect(daysBetween('2027-01-10', '2027-01-01')).toBe(-9);
  });

  it('counts the same days since the epoch as Date.UTC', () => {
    fc.assert(
      fc.property(fc.integer({ min: -200_000, max: 2_900_000 }), (day) => {
        const date = fromDayNumber(day);
        const [y, m, d] = date.split('-').map(Number);
        expect(Date.UTC(y, m - 1, d) / 86_400_000).toBe(day);
        expect(toDayNumber(date)).toBe(day);
        expect(parseIsoDate(date)).toBe(date);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('compares, and picks the earlier or later of dates', () => {
    expect(compareDates('2027-01-01', '2027-01-02')).toBeLessThan(0);
    expect(compareDates('2027-01-02', '2027-01-02')).toBe(0);
    expect(compareDates('2027-02-01', '2027-01-31')).toBeGreaterThan(0);
    expect(minDate('2027-03-01', '2027-01-15', '2027-02-01')).toBe('2027-01-15');
    expect(maxDate('2027-03-01', '2027-01-15')).toBe('2027-03-01');
  });

  it('reads today in UTC from the clock value it is given', () => {
    expect(todayIso(new Date('2027-01-01T23:59:59.999Z'))).toBe('2027-01-01');
    expect(todayIso(new Date('2027-01-01T23:30:00-05:00'))).toBe('2027-01-02');
  });
});

describe('addMonths, addYears, weekday', () => {
  it('steps months clamped to the last day of the month', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-15', 3)).toBe('2027-02-15');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
  });

  it('steps years on the same day, rolling Feb 29 to Mar 1', () => {
    expect(addYears('2026-11-22', 3)).toBe('2029-11-22');
    expect(addYears('2028-02-29', 3)).toBe('2031-03-01');
    expect(addYears('2028-02-29', 4)).toBe('2032-02-29');
  });

  it('names weekdays with 0 = Sunday', () => {
    expect(weekday('2026-11-22')).toBe(0);
    expect(weekday('1970-01-01')).toBe(4);
    expect(weekday('2026-11-26')).toBe(4);
  });
});
