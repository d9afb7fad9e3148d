/**
 * The texts of a home that a word search reads (docs/search-index.md, "Words"): its title and
 * amenities, its building's name, street address, amenities and description, the neighbourhood's,
 * the display city's and the market's names, and its pet policy in words ("Pets allowed", "Dogs allowed").
 * The indexer writes them twice: analysed (words.ts) into the `text` fields, one pair of fields
 * (folded words, stems) per tier, whose boost says how much a match there counts; and as written
 * into `match_card` (a binary doc value, not indexed: a page's cards of texts are read without
 * opening its homes' stored `_source`), which the service marks for an answer's `matched`. Built by
 * pure functions, tested by their output.
 */
import type { HomeRecord, MarketRecord, PropertyRecord } from '../../kernel/inventory/records';
import { withBuildingRules } from '../engine/building-rules';
import { indexedText } from './words';

/** The fields of `matched`, in the order an answer lists them. */
export const TEXT_FIELDS = [
  'building_name',
  'title',
  'neighborhood',
  'city',
  'market',
  'address',
  'amenities',
  'building_amenities',
  'pets',
  'description',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/** The index's tiers: which texts each holds and its boost (a building's name counts most, its description least). */
export const TEXT_TIERS = {
  name: { fields: ['building_name'], boost: 4 },
  title: { fields: ['title'], boost: 3 },
  place: { fields: ['neighborhood', 'city', 'market', 'address'], boost: 2 },
  amenities: { fields: ['amenities', 'building_amenities', 'pets'], boost: 1.5 },
  about: { fields: ['description'], boost: 0.5 },
} as const satisfies Record<string, { fields: readonly TextField[]; boost: number }>;
export type TextTier = keyof typeof TEXT_TIERS;
export const TIERS = Object.keys(TEXT_TIERS) as TextTier[];

/** One text of a home as written, and the field it is. */
export interface HomeText {
  field: TextField;
  text: string;
}

/**
 * What the index's text fields hold, one entry per text (an array keeps a phrase from running across
 * two texts): each tier's stems (matched by stem and phrase, scored by the tier's boost); the folded
 * words of every text in one field, `any` (typos and prefixes are matched there: one fuzzy clause a word
 * instead of one a tier); and the name tier's words again, so a building's name spelled with a typo or
 * typed in part scores as a name.
 */
export type IndexedTexts = Record<TextTier, { stems: string[] }> & { name: { words: string[]; stems: string[] }; any: { words: string[] } };

/**
 * A home's pet policy as a renter words it, one text a sentence so each is a phrase of its own: "Pets
 * allowed" when cats or dogs are, then "Cats allowed" and "Dogs allowed" for each. None when neither
 * is: "no pets allowed" would hold the words "pets allowed".
 */
export function petTexts(home: Pick<HomeRecord, 'cats_allowed' | 'dogs_allowed'>): string[] {
  if (!home.cats_allowed && !home.dogs_allowed) return [];
  return ['Pets allowed', ...(home.cats_allowed ? ['Cats allowed'] : []), ...(home.dogs_allowed ? ['Dogs allowed'] : [])];
}

/**
 * Every text of the home a word search reads, in TEXT_FIELDS order; a building amenity the home lists too
 * is read once. The home is read with its building's rules (a pet its building refuses is not allowed).
 */
export function homeTexts(home: HomeRecord, property: PropertyRecord, market: MarketRecord): HomeText[] {
  const neighborhood = market.neighborhoods.find((n) => n.id === home.neighborhood_id);
  const city = market.cities.find((c) => c.slug === home.city_slug);
  const own = new Set(home.amenities);
  const texts: Array<[TextField, string | undefined]> = [
    ['building_name', property.name],
    ['title', home.name],
    ['neighborhood', neighborhood?.name],
    ['city', city?.name ?? property.city],
    ['market', market.name],
    ['address', property.address],
    ...home.amenities.map((a): [TextField, string] => ['amenities', a]),
    ...property.amenities.filter((a) => !own.has(a)).map((a): [TextField, string] => ['building_amenities', a]),
    ...petTexts(withBuildingRules(home, property)).map((t): [TextField, string] => ['pets', t]),
    ['description', property.description],
  ];
  return texts.filter((t): t is [TextField, string] => typeof t[1] === 'string' && t[1].trim() !== '').map(([field, text]) => ({ field, text }));
}

/** The texts analysed into the index's text fields. */
export function indexedTexts(texts: readonly HomeText[]): IndexedTexts {
  const out = {
    ...(Object.fromEntries(TIERS.map((t) => [t, { stems: [] }])) as unknown as Record<TextTier, { stems: string[] }>),
    name: { words: [] as string[], stems: [] as string[] },
    any: { words: [] as string[] },
  };
  for (const tier of TIERS) {
    for (const t of texts) {
      if (!(TEXT_TIERS[tier].fields as readonly TextField[]).includes(t.field)) continue;
      const { words, stems } = indexedText(t.text);
      if (words === '') continue;
      out[tier].stems.push(stems);
      out.any.words.push(words);
      if (tier === 'name') out.name.words.push(words);
    }
  }
  return out;
}

/**
 * The texts as the `match_card` doc value holds them: `[field's place in TEXT_FIELDS, text, ...]` as
 * JSON, base64 (a binary field's form in a document).
 */
export function encodeMatchCard(texts: readonly HomeText[]): string {
  return Buffer.from(JSON.stringify(texts.flatMap((t) => [TEXT_FIELDS.indexOf(t.field), t.text])), 'utf8').toString('base64');
}

/** A `match_card` as written; an unreadable one holds no text (a page then marks nothing for that home rather than failing). */
export function decodeMatchCard(card: string): HomeText[] {
  let flat: unknown;
  try {
    flat = JSON.parse(Buffer.from(card, 'base64').toString('utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(flat)) return [];
  const out: HomeText[] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const field = TEXT_FIELDS[flat[i] as number];
    const text = flat[i + 1];
    if (field !== undefined && typeof text === 'string') out.push({ field, text });
  }
  return out;
}
