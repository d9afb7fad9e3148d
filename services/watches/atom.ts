/**
 * The feed for feed readers (RFC 4287): a watch's latest changes, newest first, each entry with the
 * change's id (one forever), its kind and home, its price, the home's page, and the unwatch link.
 */
import type { ChangeView } from './change-view';
import type { WatchLinks } from './links';

const escapeXml = (s: string): string => s.replace(/[<>&'"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[ch] ?? ch);

const KIND_TEXT: Record<ChangeView['kind'], string> = { entered: 'now matches', price_dropped: 'dropped in price', left: 'no longer matches' };

function entry(change: ChangeView): string {
  const homeUrl = typeof change.home?.home_url === 'string' ? change.home.home_url : null;
  const price = change.price !== null ? ` at $${change.price}` : '';
  return [
    '<entry>',
    `<id>urn:watch-change:${escapeXml(change.change_id)}</id>`,
    `<title>${escapeXml(`${change.home_slug} ${KIND_TEXT[change.kind]}${price}`)}</title>`,
    `<updated>${change.at}</updated>`,
    `<category term="${change.kind}"/>`,
    homeUrl ? `<link rel="alternate" href="${escapeXml(homeUrl)}"/>` : '',
    `<content type="text">${escapeXml(JSON.stringify(change))}</content>`,
    '</entry>',
  ].join('');
}

export function atomFeed(watchId: string, links: WatchLinks, newestFirst: readonly ChangeView[], updated: Date): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `<id>urn:watch:${escapeXml(watchId)}</id>`,
    `<title>Watched search ${escapeXml(watchId)}</title>`,
    `<updated>${(newestFirst[0]?.at ?? updated.toISOString()).replace(/\.\d{3}Z$/, 'Z')}</updated>`,
    '<author><name>furnished-catalog</name></author>',
    `<link rel="self" href="${escapeXml(links.atom_url)}"/>`,
    `<link rel="alternate" type="application/json" href="${escapeXml(links.feed_url)}"/>`,
    `<link rel="unwatch" href="${escapeXml(links.unwatch_url)}"/>`,
    ...newestFirst.map(entry),
    '</feed>',
  ].join('\n');
}
