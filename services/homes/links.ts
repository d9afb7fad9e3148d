/** Links into the operator's website: the apartment page and the checkout. */
import type { IsoDate } from '../kernel/inventory/records';
import type { StayRequest } from '../kernel/engine/types';

/** What a link can pre-fill: a whole stay, or only the move-in date. */
export type LinkDates = StayRequest | { kind: 'start_only'; start_date: IsoDate };

function withQuery(base: string, params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `${base}?${s}` : base;
}

function stayParams(stay: LinkDates | null): Record<string, string | number | undefined> {
  if (!stay) return {};
  if (stay.kind === 'start_only') return { start_date: stay.start_date };
  return stay.kind === 'fixed'
    ? { start_date: stay.start_date, end_date: stay.end_date }
    : { start_date: stay.start_date, end_date: 'indefinite', committed_nights: stay.committed_nights };
}

/** Checkout link; dates (and the Flex tier) are pre-filled only for a stay that can be booked. */
export function reservationLink(checkoutBaseUrl: string, slug: string, bookableStay: LinkDates | null): string {
  return withQuery(`${checkoutBaseUrl}/${encodeURIComponent(slug)}`, stayParams(bookableStay));
}

/** The apartment page with the search dates pre-filled. */
export function homeUrl(siteBaseUrl: string, slug: string, stay: LinkDates | null): string {
  return withQuery(`${siteBaseUrl}/homes/${encodeURIComponent(slug)}`, stayParams(stay));
}
