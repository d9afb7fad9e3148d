/**
 * The text of a search answer's chosen stay (`stay: { start_date, end_date, nights }`) as the search
 * page and the card widget show it: "Mar 3 – Jun 1, 2027 · 90 nights", or for Flex (end_date null)
 * "Flex from Mar 3, 2027 · 6 months committed". Dates are read as calendar dates: no clock, no time zone.
 */
import { flexTermLabel, nightsText } from './labels';

/** The answer's `stay` as this text reads it (its schema: services/contracts/search-output.ts). */
export interface ChosenStay {
  start_date: string;
  end_date: string | null;
  nights: number;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const parts = (iso: string): { year: string; monthDay: string } => {
  const [year, month, day] = iso.split('-');
  return { year, monthDay: `${MONTHS[Number(month) - 1]} ${Number(day)}` };
};

/** "Mar 3, 2027". */
export function shortDate(iso: string): string {
  const { year, monthDay } = parts(iso);
  return `${monthDay}, ${year}`;
}

/** "Mar 3 – Jun 1, 2027", the year once when both dates share it. */
export function dateRange(start: string, end: string): string {
  const a = parts(start);
  const b = parts(end);
  return a.year === b.year ? `${a.monthDay} – ${b.monthDay}, ${b.year}` : `${shortDate(start)} – ${shortDate(end)}`;
}

export function stayLabel(stay: ChosenStay): string {
  if (stay.end_date === null) return `Flex from ${shortDate(stay.start_date)} · ${flexTermLabel(stay.nights)}`;
  return `${dateRange(stay.start_date, stay.end_date)} · ${nightsText(stay.nights)}`;
}
