import type { BookableWindow } from '../../../services/kernel/engine/types';
import { earliestAhead, hostsAStay, overviewWindows, windowsStillOpen } from '../../../services/kernel/engine/overview-windows';

const window = (over: Partial<BookableWindow>): BookableWindow => ({
  start_date: '2027-03-01',
  end_date: '2027-03-31',
  nights: 30,
  can_move_in_at_start: true,
  can_move_out_at_end: true,
  minimum_nightly_stay: 30,
  fits_minimum_stay: true,
  ...over,
});

describe('the availability overview windows (the contract: windows shorter than their own minimum are left out)', () => {
  it('keeps a window that holds exactly its own minimum, and an open-ended one', () => {
    expect(hostsAStay(window({ nights: 30, minimum_nightly_stay: 30 }))).toBe(true);
    expect(hostsAStay(window({ end_date: null, nights: null, minimum_nightly_stay: 90 }))).toBe(true);
  });

  it('leaves out a window one night shorter than its own minimum, or one the engine says fits no stay', () => {
    expect(hostsAStay(window({ nights: 29, minimum_nightly_stay: 30 }))).toBe(false);
    expect(hostsAStay(window({ fits_minimum_stay: false }))).toBe(false);
  });

  it('writes compact keys, with ms only when stricter than the floor and no e or n when open-ended', () => {
    const w = [
      window({ minimum_nightly_stay: 30 }),
      window({ start_date: '2027-05-01', end_date: null, nights: null, minimum_nightly_stay: 45, can_move_out_at_end: false }),
      window({ start_date: '2027-04-01', nights: 10, minimum_nightly_stay: 30 }),
    ];
    expect(overviewWindows(w, 30)).toEqual([
      { s: '2027-03-01', e: '2027-03-31', n: 30, mi: true, mo: true },
      { s: '2027-05-01', mi: true, mo: false, ms: 45 },
    ]);
  });

  it('drops the windows that ended by today, and never names a past earliest date', () => {
    const compact = overviewWindows(
      [
        window({ end_date: '2027-03-10', nights: 30, minimum_nightly_stay: 1 }),
        window({ start_date: '2027-04-01', end_date: null, nights: null, minimum_nightly_stay: 1 }),
      ],
      1,
    );
    const open = windowsStillOpen(compact, '2027-03-10');
    expect(open.map((w) => w.s)).toEqual(['2027-04-01']);
    expect(earliestAhead('2027-03-05', open, '2027-03-10')).toBe('2027-04-01');
    expect(earliestAhead('2027-03-12', open, '2027-03-10')).toBe('2027-03-12');
    expect(earliestAhead(null, [], '2027-03-10')).toBeUndefined();
  });
});
