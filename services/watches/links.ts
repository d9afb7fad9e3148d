/** A watch's public addresses: its feed, the same as Atom, and the URL that ends it (DELETE). */
export interface WatchLinks {
  feed_url: string;
  atom_url: string;
  unwatch_url: string;
}

export function watchLinks(publicBaseUrl: string, token: string): WatchLinks {
  const base = `${publicBaseUrl}/api/public/watches/${encodeURIComponent(token)}`;
  return { feed_url: `${base}/changes`, atom_url: `${base}/atom`, unwatch_url: base };
}
