/** The two search results as the widgets read them; the types come from the tools' output schemas. */
import type { FromSchema } from 'json-schema-to-ts';
import type { mapOutputSchema, searchOutputSchema } from '../../contracts/search-output';
import type { ToolResultPayload } from './host';

export type SearchPage = FromSchema<typeof searchOutputSchema>;
export type MapResult = FromSchema<typeof mapOutputSchema>;
export type SearchHome = SearchPage['homes'][number];

/** The structuredContent when it looks like a search answer (a list of homes), else null. */
export function readHomes<T extends { homes: SearchHome[] }>(result: ToolResultPayload): T | null {
  const data = result.structuredContent;
  if (result.isError || typeof data !== 'object' || data === null) return null;
  return Array.isArray((data as { homes?: unknown }).homes) ? (data as T) : null;
}

/** Hero photos the result embeds as image content (each with _meta.home_slug), as data: URLs. */
export function embeddedHeroes(result: ToolResultPayload): Map<string, string> {
  const out = new Map<string, string>();
  for (const block of result.content ?? []) {
    const slug = block._meta?.home_slug;
    if (block.type === 'image' && typeof slug === 'string' && block.data && block.mimeType) {
      out.set(slug, `data:${block.mimeType};base64,${block.data}`);
    }
  }
  return out;
}

/** The all-in price; shown with display_price_label ("per month for 2 months"), which already names the unit. */
export function formatPrice(home: SearchHome): string {
  return `$${home.display_price_with_discount.toLocaleString('en-US')}`;
}

export function homeFacts(home: SearchHome): string {
  const rooms = home.bedrooms === 0 ? 'Studio' : `${home.bedrooms} bd`;
  return `${rooms} · ${home.bathrooms} ba · ${home.sqft.toLocaleString('en-US')} sqft · ${home.city}`;
}

/** The place searched, for the widget's heading (a map's viewport alone names none). */
export function placeName(result: { display_city: SearchPage['display_city']; market: { slug: string } | null }): string {
  if (result.display_city) return `${result.display_city.name}, ${result.display_city.state}`;
  return result.market ? result.market.slug : 'this area';
}

export type MapCluster = NonNullable<MapResult['clusters']>[number];

/** A cluster's cheapest price: exact, or "from" a bound when only a bound is known. */
export function clusterPrice(c: MapCluster): string {
  const unit = c.display_price_unit === 'per_night' ? '/night' : '/month';
  if (c.cheapest_display_price !== undefined) return `from $${c.cheapest_display_price.toLocaleString('en-US')}${unit}`;
  if (c.cheapest_display_price_at_least !== undefined) return `$${c.cheapest_display_price_at_least.toLocaleString('en-US')}${unit} or more`;
  return '';
}

/** The message a click sends to the host: it names the home by name and slug. */
export function askAbout(home: SearchHome): string {
  return `Tell me more about ${home.name} (home_slug ${home.slug}).`;
}
