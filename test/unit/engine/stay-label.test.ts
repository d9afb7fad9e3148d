/** The text of a search answer's chosen stay, as the search page and the card widget show it. */
import { dateRange, shortDate, stayLabel } from '../../../services/kernel/engine/stay-label';

describe('stayLabel', () => {
  it('names a fixed stay by its dates and nights, the year once when both dates share it', () => {
    expect(stayLabel({ start_date: '2027-03-03', end_date: '2027-06-01', nights: 90 })).toBe('Mar 3 – Jun 1, 2027 · 90 nights');
    expect(stayLabel({ start_date: '2026-12-20', end_date: '2026-12-21', nights: 1 })).toBe('Dec 20 – Dec 21, 2026 · 1 night');
  });

  it('writes both years when the stay crosses New Year', () => {
    expect(dateRange('2026-12-20', '2027-03-20')).toBe('Dec 20, 2026 – Mar 20, 2027');
  });

  it('names a Flex stay (end_date null) by its move-in and committed months', () => {
    expect(stayLabel({ start_date: '2027-01-09', end_date: null, nights: 180 })).toBe('Flex from Jan 9, 2027 · 6 months committed');
  });

  it('reads a date as a calendar date, whatever the time zone', () => {
    expect(shortDate('2027-01-01')).toBe('Jan 1, 2027');
    expect(shortDate('2028-02-29')).toBe('Feb 29, 2028');
  });
});
