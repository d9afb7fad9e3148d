/**
 * The feed's cursor: opaque to clients, it names the last change a page carried (its number within
 * the watch), so the next page starts after it; an absent cursor starts at the first change.
 */
import { badRequest } from '../kernel/errors';

export const encodeCursor = (seq: number): string => Buffer.from(`c1:${seq}`).toString('base64url');

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const m = /^c1:(\d{1,12})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw badRequest('invalid_parameters', 'cursor is not one this feed gave: pass next_cursor of the previous page, or none to start.');
  return Number(m[1]);
}
