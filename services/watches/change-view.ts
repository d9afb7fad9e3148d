/** A change as the feed, the Atom feed and the webhook show it (docs/contract.md, "What a watch reports"). */
import type { WatchChangeRecord } from '../kernel/store/watch-records';

export interface ChangeView {
  change_id: string;
  kind: WatchChangeRecord['kind'];
  home_slug: string;
  at: string;
  price: number | null;
  home?: Record<string, unknown>;
}

export function changeView(r: WatchChangeRecord): ChangeView {
  return {
    change_id: r._id,
    kind: r.kind,
    home_slug: r.home_slug,
    at: r.at.toISOString(),
    price: r.price,
    ...(r.card ? { home: r.card } : {}),
  };
}
