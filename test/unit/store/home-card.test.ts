/** The card a search reads its hits from holds exactly what the document holds, in fewer bytes than keyed JSON. */
import { generateInventory } from '../../../stack/demo/generate';
import { toHomeDocument } from '../../../indexer/document';
import { CARD_FIELDS, PRICING_FIELDS, decodeCard, encodeCard } from '../../../services/kernel/store/home-card';
import type { HomeDocument } from '../../../services/kernel/store/home-document';

const TODAY = '2026-11-25';
const inventory = generateInventory({ seed: 11, homes: 600, today: TODAY });
const properties = new Map(inventory.properties.map((p) => [p._id, p]));
const markets = new Map(inventory.markets.map((m) => [m.slug, m]));
const documents: HomeDocument[] = [...inventory.homes]
  .filter((h) => h.published && h.deleted_at === null)
  .map((h) => toHomeDocument(h, properties.get(h.property_id)!, markets.get(h.market_slug)!, TODAY));

const cardOf = (doc: HomeDocument) => Object.fromEntries(CARD_FIELDS.map((f) => [f, doc[f]]));

describe('the home card', () => {
  it('decodes to the card fields of the document, every value as it was (null stays null), for every home of an inventory', () => {
    expect(documents.length).toBeGreaterThan(400);
    for (const doc of documents) expect(decodeCard(doc.card)).toStrictEqual(cardOf(doc));
  });

  it("keeps the pricing inputs whole: every key, in the engine's names", () => {
    for (const doc of documents) expect(Object.keys(decodeCard(doc.card).pricing).sort()).toEqual([...PRICING_FIELDS].sort());
    // Homes with and without offers, seasonal discounts and Flex tiers are all in the sample.
    expect(documents.some((d) => d.pricing.special_offer === null)).toBe(true);
    expect(documents.some((d) => d.pricing.special_offer !== null)).toBe(true);
    expect(documents.some((d) => d.pricing.flex_tiers.length > 0)).toBe(true);
  });

  it('is at least a quarter smaller than the same fields as keyed JSON', () => {
    let positional = 0;
    let keyed = 0;
    for (const doc of documents) {
      positional += Buffer.from(encodeCard(doc), 'base64').length;
      keyed += JSON.stringify(cardOf(doc)).length;
    }
    expect(positional).toBeLessThan(keyed * 0.75);
  });

  it('still reads a card written keyed by an earlier indexer (an index not rebuilt yet)', () => {
    const doc = documents[0];
    const keyed = Buffer.from(JSON.stringify(cardOf(doc))).toString('base64');
    expect(decodeCard(keyed)).toStrictEqual(cardOf(doc));
  });
});
