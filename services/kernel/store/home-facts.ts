/**
 * What a changed home offers the watches' criteria (services/watches/watch-index.ts, the reverse
 * search): read from its document, as the indexer writes it or as the homes alias returns it.
 */
import { FLAG_FIELDS } from './flag-fields';
import type { HomeDocument } from './home-document';

export interface HomeFacts {
  homeId: string;
  market_slug: string;
  bedrooms: number;
  /** The flag fields that are true for it. */
  flags: string[];
  /** Its indexed reference price (after discounts), when it has one. */
  reference?: number;
  /** Its price bands by cell key: the lower and upper bound of any fixed stay of the cell. */
  bands: Record<string, { lo: number; hi?: number }>;
}

/**
 * What an incremental run knows of the homes it applies, by id: the facts of a home it wrote (its new
 * document), null for one it leaves with no document (unpublished, deleted). A home it has no entry for
 * (skipped, or past what it keeps) is read from the homes alias once its writes are searchable.
 */
export type KeptFacts = ReadonlyMap<string, HomeFacts | null>;

type FlagField = (typeof FLAG_FIELDS)[keyof typeof FLAG_FIELDS];
const FLAG_NAMES: FlagField[] = Object.values(FLAG_FIELDS);

/** The fields of a home's document its facts come from. */
export type FactFields = Pick<HomeDocument, 'home_id' | 'market_slug' | 'bedrooms' | 'price_lo' | 'price_hi'> & {
  reference_price?: Partial<HomeDocument['reference_price']>;
} & Partial<Pick<HomeDocument, FlagField>>;

/** The `_source` fields a read of the facts asks for. */
export const FACT_SOURCE_FIELDS: readonly string[] = [
  'home_id',
  'market_slug',
  'bedrooms',
  'reference_price.with_discount',
  'price_lo',
  'price_hi',
  ...FLAG_NAMES,
];

export function factsOfDocument(doc: FactFields): HomeFacts {
  const lo = doc.price_lo ?? {};
  const hi = doc.price_hi ?? {};
  const reference = doc.reference_price?.with_discount;
  return {
    homeId: String(doc.home_id),
    market_slug: String(doc.market_slug),
    bedrooms: Number(doc.bedrooms),
    flags: FLAG_NAMES.filter((f) => doc[f] === true),
    ...(typeof reference === 'number' ? { reference } : {}),
    bands: Object.fromEntries(Object.entries(lo).map(([cell, low]) => [cell, { lo: low, ...(hi[cell] !== undefined ? { hi: hi[cell] } : {}) }])),
  };
}
