/**
 * What a watch reports for some homes (docs/contract.md, "What a watch reports"): the homes its search
 * matched before (with the price it showed) against what the same search, restricted to those homes,
 * matches now. A home that now matches and did not entered; one that matched and no longer does left;
 * one that matches both times at a price 5 % or more below the last one seen dropped in price. The
 * price kept is always the latest seen, so a drop is measured from the search before the change.
 */
import type { NewChange } from './store';

export const PRICE_DROP_SHARE = 0.05;

export interface Seen {
  slug: string;
  price: number;
}

export interface NowMatching extends Seen {
  homeId: string;
  card: Record<string, unknown>;
}

export interface WatchDiff {
  changes: NewChange[];
  /** The homes now matching, with the price to keep. */
  hold: Map<string, Seen>;
  /** The homes that no longer match. */
  release: string[];
}

/** `homeIds`: the homes looked at; `before`: what the watch held of them; `now`: what its search matches of them now. */
export function diffMatches(homeIds: readonly string[], before: ReadonlyMap<string, Seen>, now: readonly NowMatching[]): WatchDiff {
  const nowById = new Map(now.map((m) => [m.homeId, m]));
  const changes: NewChange[] = [];
  const hold = new Map<string, Seen>();
  const release: string[] = [];
  for (const id of homeIds) {
    const was = before.get(id);
    const is = nowById.get(id);
    if (is) {
      hold.set(id, { slug: is.slug, price: is.price });
      if (!was) changes.push({ kind: 'entered', home_slug: is.slug, price: is.price, card: is.card });
      else if (is.price <= was.price * (1 - PRICE_DROP_SHARE)) changes.push({ kind: 'price_dropped', home_slug: is.slug, price: is.price, card: is.card });
    } else if (was) {
      release.push(id);
      changes.push({ kind: 'left', home_slug: was.slug, price: null, card: null });
    }
  }
  return { changes, hold, release };
}
