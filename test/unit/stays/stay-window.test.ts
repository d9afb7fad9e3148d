/** readStayWindow: a window of move-in dates read from a search's arguments, and what it refuses (docs/contract.md, "A window of move-in dates"). */
import { readStayWindow, windowStarts, type WindowArgs } from '../../../services/stays/stay-window';
import { SEARCH_STAY_POLICY } from '../../../services/stays/stay-policies';

const today = '2027-01-10';
const read = (args: WindowArgs) => readStayWindow(args, today, SEARCH_STAY_POLICY);
const refusal = (args: WindowArgs): { code: string } | null => {
  try {
    read(args);
    return null;
  } catch (err) {
    return { code: (err as { code: string }).code };
  }
};

describe('readStayWindow', () => {
  it('reads a fixed window (nights) and a Flex window (a tier), none without latest_start_date', () => {
    expect(read({ start_date: '2027-02-01', latest_start_date: '2027-03-03', nights: 90 })).toEqual({
      earliest: '2027-02-01',
      latest: '2027-03-03',
      length: { kind: 'fixed', nights: 90 },
    });
    expect(read({ start_date: '2027-02-01', latest_start_date: '2027-02-01', end_date: 'indefinite', committed_nights: 180 })).toEqual({
      earliest: '2027-02-01',
      latest: '2027-02-01',
      length: { kind: 'flex', committed_nights: 180 },
    });
    expect(read({ start_date: '2027-02-01', end_date: '2027-03-01' })).toBeNull();
  });

  it.each<[string, WindowArgs, string]>([
    ['latest before start', { start_date: '2027-02-01', latest_start_date: '2027-01-31', nights: 30 }, 'invalid_date'],
    ['61 days', { start_date: '2027-02-01', latest_start_date: '2027-04-03', nights: 30 }, 'invalid_date'],
    ['a move-out date', { start_date: '2027-02-01', latest_start_date: '2027-02-10', end_date: '2027-05-01' }, 'invalid_parameters'],
    [
      'nights with indefinite',
      { start_date: '2027-02-01', latest_start_date: '2027-02-10', end_date: 'indefinite', committed_nights: 180, nights: 30 },
      'invalid_parameters',
    ],
    ['nights without a window', { start_date: '2027-02-01', nights: 30 }, 'invalid_parameters'],
    ['no length', { start_date: '2027-02-01', latest_start_date: '2027-02-10' }, 'invalid_parameters'],
    ['Flex without a tier', { start_date: '2027-02-01', latest_start_date: '2027-02-10', end_date: 'indefinite' }, 'invalid_parameters'],
    ['no start_date', { latest_start_date: '2027-02-10', nights: 30 }, 'invalid_parameters'],
    ['latest past the year', { start_date: '2027-12-20', latest_start_date: '2028-01-11', nights: 30 }, 'invalid_date'],
    ['start more than a week past', { start_date: '2027-01-02', latest_start_date: '2027-01-20', nights: 30 }, 'invalid_date'],
  ])('refuses %s', (_name, args, code) => {
    expect(refusal(args)).toEqual({ code });
  });

  it('takes exactly 60 days; the starts begin today when the window began before', () => {
    expect(refusal({ start_date: '2027-02-01', latest_start_date: '2027-04-02', nights: 30 })).toBeNull();
    const w = read({ start_date: '2027-01-05', latest_start_date: '2027-01-12', nights: 3 })!;
    expect(windowStarts(w, today)).toEqual(['2027-01-10', '2027-01-11', '2027-01-12']);
  });

  it('takes no start whose stay would end more than 3 years ahead, and refuses a window where every stay would', () => {
    // Today 2027-01-10: no move-out after 2030-01-10.
    const w = read({ start_date: '2027-01-05', latest_start_date: '2027-01-30', nights: 1_095 });
    const starts = windowStarts(w!, today);
    expect(starts[0]).toBe('2027-01-10');
    expect(starts[starts.length - 1]).toBe('2027-01-11');
    expect(refusal({ start_date: '2027-01-12', latest_start_date: '2027-02-01', nights: 1_095 })).toEqual({ code: 'invalid_date' });
    expect(
      windowStarts(read({ start_date: '2027-02-01', latest_start_date: '2027-02-05', end_date: 'indefinite', committed_nights: 365 })!, today),
    ).toHaveLength(5);
  });
});
