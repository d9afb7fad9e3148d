/**
 * The shared world of the search_properties_tool tests (test/e2e/search-properties-*.test.ts): 700
 * generated homes (seed 11), the naive model of them (test/support/search-model.ts: the stay engine over
 * the records), its busiest city, the calls the tests make through the SDK's MCP client, and the check
 * of every card against the model.
 */
import { startFixture, type Fixture } from '../../support/fixture';
import { busiestCity, expectedResults, loadWorld, type ModelArgs, type ModelResult, type World } from '../../support/search-model';

export type Card = Record<string, any>;
export type Envelope = Record<string, any> & { properties: Card[] };

export async function startPropertiesWorld(): Promise<{ fx: Fixture; world: World; city: string; market: string }> {
  const fx = await startFixture({ homes: 700, seed: 11 });
  const world = await loadWorld(fx.mongo.collections, fx.today);
  const { city, market } = busiestCity(world);
  return { fx, world, city, market };
}

/** Bed groups met with a real offer by expectCardsMatchModel in this test file. */
export let anchorsSeen = 0;

export const priceOf = (u: ModelResult) => u.price.display_price_with_discount;

/** The calls and checks of the tests, on the fixture and the world the file started (read when called). */
export function propertySearch(fixture: () => Fixture, model: () => World) {
  async function call(args: Record<string, unknown>) {
    const client = await fixture().mcp();
    return client.callTool({ name: 'search_properties_tool', arguments: args });
  }

  async function search(args: Record<string, unknown>): Promise<Envelope> {
    const res = await call(args);
    expect(res.isError).toBeFalsy();
    return res.structuredContent as Envelope;
  }

  function errorOf(result: Awaited<ReturnType<typeof call>>): { code: string; message: string } {
    expect(result.isError).toBe(true);
    return JSON.parse((result.content as Array<{ text: string }>)[0].text).error;
  }

  /** Every page, concatenated, with the first envelope. */
  async function allCards(args: Record<string, unknown>, perPage = 7): Promise<{ cards: Card[]; first: Envelope }> {
    const cards: Card[] = [];
    let first: Envelope | undefined;
    for (let page = 1; ; page++) {
      const res = await search({ ...args, page, per_page: perPage });
      first ??= res;
      cards.push(...res.properties);
      if (page >= res.total_pages) return { cards, first: first! };
    }
  }

  /** The model's units of a building search: monthly limits, square footage, the highest rating threshold. */
  function expectedUnits(args: Record<string, unknown>, opts: { ignorePrice?: boolean; minSqft?: number } = {}): ModelResult[] {
    const modelArgs: ModelArgs = { ...args, price_unit: 'per_month' };
    return expectedResults(model(), modelArgs, opts).filter((r) => opts.minSqft === undefined || r.m.home.sqft >= opts.minSqft);
  }

  function byBuilding(units: ModelResult[]): Map<string, ModelResult[]> {
    const out = new Map<string, ModelResult[]>();
    for (const u of units) out.set(u.m.property._id, [...(out.get(u.m.property._id) ?? []), u]);
    return out;
  }

  /** Every card of the search agrees with the model: units, prices, groups, counts, no building missing. */
  function expectCardsMatchModel(cards: Card[], first: Envelope, expected: ModelResult[], otherDates?: Map<string, number>) {
    const buildings = byBuilding(expected);
    expect(first.total_homes).toBe(expected.length);
    expect(first.total_properties).toBe(buildings.size);
    expect(cards.map((c) => c.id).sort()).toEqual([...buildings.keys()].sort());
    expect(new Set(cards.map((c) => c.id)).size).toBe(cards.length);
    for (const card of cards) {
      const units = buildings.get(card.id)!;
      const cheapest = Math.min(...units.map(priceOf));
      expect(card.from_price).toBe(cheapest);
      // bed_groups: one per bedroom count, cheapest first, counts and minimums exact.
      const counts = new Map<number, ModelResult[]>();
      for (const u of units) counts.set(u.m.home.bedrooms, [...(counts.get(u.m.home.bedrooms) ?? []), u]);
      expect(card.bed_groups.map((g: Card) => g.bedrooms).sort()).toEqual([...counts.keys()].sort());
      for (const g of card.bed_groups) {
        const group = counts.get(g.bedrooms)!;
        expect(g.count).toBe(group.length);
        expect(g.min_price).toBe(Math.min(...group.map(priceOf)));
        // anchor_price: the cheapest unit's pre-discount price, only beside a real offer on it (ties by id).
        const cheapestUnit = [...group].sort((a, b) => priceOf(a) - priceOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
        const before = cheapestUnit.price.display_price_without_discount;
        expect(g.anchor_price).toBe(before > priceOf(cheapestUnit) ? before : null);
        anchorsSeen += g.anchor_price === null ? 0 : 1;
      }
      const mins = card.bed_groups.map((g: Card) => g.min_price);
      expect(mins).toEqual([...mins].sort((a: number, b: number) => a - b));
      // units: at most three per bedroom count, the cheapest ones, each at its quote's price.
      const bySlug = new Map(units.map((u) => [u.slug, u]));
      for (const [bedrooms, group] of counts) {
        const shown = card.units.filter((u: Card) => u.bedrooms === bedrooms);
        expect(shown.length).toBe(Math.min(3, group.length));
        const cheapestThree = group
          .map(priceOf)
          .sort((a, b) => a - b)
          .slice(0, 3);
        expect(shown.map((u: Card) => u.price).sort((a: number, b: number) => a - b)).toEqual(cheapestThree);
      }
      for (const u of card.units) {
        const model = bySlug.get(u.slug)!;
        expect(model).toBeDefined();
        expect(u.id).toBe(model.id);
        expect(u.price).toBe(priceOf(model));
        expect(u.price_label).toBe(model.price.display_price_label);
        expect(u.anchor_price).toBe(model.price.display_price_without_discount > priceOf(model) ? model.price.display_price_without_discount : null);
      }
      // offer: the smallest per-bedroom saving, or null without any (from the model, not from the card).
      const savings = [...counts.values()].flatMap((group) => {
        const c = [...group].sort((a, b) => priceOf(a) - priceOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0];
        const before = c.price.display_price_without_discount;
        return before > priceOf(c) ? [before - priceOf(c)] : [];
      });
      expect(card.offer === null ? null : card.offer.saving).toBe(savings.length ? Math.min(...savings) : null);
      if (otherDates) expect(card.other_dates_count).toBe(otherDates.get(card.id) ?? 0);
      expect(card.other_dates.length).toBeLessThanOrEqual(card.other_dates_count);
      for (const o of card.other_dates) expect(o).not.toHaveProperty('price');
    }
  }

  return { call, search, errorOf, allCards, expectedUnits, byBuilding, expectCardsMatchModel };
}
