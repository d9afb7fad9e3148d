/** toHomeDocument is pure and tested by its output; every field it writes is mapped in mappings/homes.json. */
import mapping from '../../../mappings/homes.json';
import { toHomeDocument } from '../../../indexer/document';
import { makeHome, openRange, closedRange } from '../../support/arbitraries';
import { makeMarket, makeProperty } from '../../support/records';
import { displayPrice, referenceStay } from '../../../services/kernel/engine/pricing';
import { toDayNumber } from '../../../services/kernel/engine/dates';
import { LAST_KEY_DAY, minimumKeyRanges } from '../../../services/kernel/store/minimum-keys';
import { CARD_FIELDS, decodeCard } from '../../../services/kernel/store/home-card';

/** A day number, as the index's range fields hold dates. */
const day = toDayNumber;

const today = '2027-01-10';

const property = makeProperty();
const market = makeMarket();

type MappingNode = { type?: string; enabled?: boolean; properties?: Record<string, MappingNode> };

function mappedPaths(props: Record<string, MappingNode>, prefix = ''): Set<string> {
  const out = new Set<string>();
  for (const [name, node] of Object.entries(props)) {
    const path = prefix + name;
    if (node.properties) for (const p of mappedPaths(node.properties, path + '.')) out.add(p);
    else out.add(path);
  }
  return out;
}

/** Leaf paths of a document; arrays of objects are walked, a geo point is one leaf. */
function documentPaths(value: Record<string, unknown>, prefix = ''): Set<string> {
  const out = new Set<string>();
  for (const [key, v] of Object.entries(value)) {
    const path = prefix + key;
    const items = Array.isArray(v) ? v : [v];
    const objects = items.filter((x): x is Record<string, unknown> => x !== null && typeof x === 'object');
    if (key === 'location' || objects.length === 0) out.add(path);
    for (const o of key === 'location' ? [] : objects) for (const p of documentPaths(o, path + '.')) out.add(p);
  }
  return out;
}

describe('toHomeDocument', () => {
  const home = makeHome({
    calendar: [openRange('2027-01-01', '2027-02-01'), closedRange('2027-02-01', '2027-02-10'), openRange('2027-02-10', null)],
    special_offer: { start_date: '2027-01-01', end_date: '2027-03-01', percent: 10, label: 'Winter offer' },
  });
  const doc = toHomeDocument(home, property, market, today);

  it('maps every field of the document, and maps nothing the document lacks', () => {
    const mapped = mappedPaths(mapping.mappings.properties as Record<string, MappingNode>);
    // And a home whose window has a day closed to move-ins and, later, one closed to move-outs: its
    // blocks of stay spans carry every reading of a gap.
    const gapped = makeHome({
      calendar: [
        openRange('2027-01-01', '2027-01-15'),
        { ...openRange('2027-01-15', '2027-01-16'), move_in_allowed: false },
        openRange('2027-01-16', '2027-01-25'),
        { ...openRange('2027-01-25', '2027-01-26'), move_out_allowed: false },
        openRange('2027-01-26', '2027-02-01'),
        closedRange('2027-02-01', '2027-02-10'),
        openRange('2027-02-10', null),
      ],
    });
    const written = new Set([doc, toHomeDocument(gapped, property, market, today)].flatMap((d) => [...documentPaths(d as unknown as Record<string, unknown>)]));
    // A range value ({gte, lt}) and an unindexed object are one mapped leaf holding what lies below it.
    const covered = (p: string) => [...mapped].some((m) => p === m || p.startsWith(m + '.'));
    const writtenUnder = (m: string) => [...written].some((p) => p === m || p.startsWith(m + '.'));
    expect([...written].filter((p) => !covered(p))).toEqual([]);
    expect([...mapped].filter((m) => !writtenUnder(m))).toEqual([]);
  });

  it('carries the engine windows that can host a stay in compact keys, open-ended ones without an end', () => {
    expect(doc.windows.map((w) => [w.s, w.e, w.n])).toEqual([
      ['2027-01-10', '2027-02-01', 22],
      ['2027-02-10', undefined, undefined],
    ]);
    expect(doc.earliest_available_date).toBe('2027-01-10');
    expect(doc.bookable).toBe(true);
  });

  it('carries the reference price the engine computes, so search and detail agree', () => {
    const price = displayPrice(home, referenceStay(home, today));
    expect(doc.reference_price.with_discount).toBe(price.display_price_with_discount);
    expect(doc.reference_price.without_discount).toBe(price.display_price_without_discount);
  });

  it('derives filter fields: geo point, pets, laundry, building features, active offer', () => {
    expect(doc.location).toEqual({ lat: 30.27, lon: -97.74 });
    expect(doc.pets_allowed).toBe(true);
    expect(doc.in_unit_laundry).toBe(true);
    expect(doc.has_pool).toBe(true);
    expect(doc.has_active_offer).toBe(true);
    expect(doc.offer_percent).toBe(10);
    expect(doc.rating_average).toBe(4.4);
    expect(doc.hero_photo_source).toBe('property');
  });

  it('is not bookable when unpublished, and has no active offer once its window closed', () => {
    const hidden = toHomeDocument({ ...home, published: false }, property, market, today);
    expect(hidden.bookable).toBe(false);
    const later = toHomeDocument(home, property, market, '2027-03-01');
    expect(later.has_active_offer).toBe(false);
    expect(later.offer_percent).toBeNull();
  });

  it('carries what search asks of a stay: move-in and move-out dates, price bands, Flex tiers, pricing inputs', () => {
    // Open 2027-01-01..02-01 (seen from 01-10), closed to 02-10, then open-ended; minimum 1 night.
    expect(doc.open_windows).toEqual([{ gte: day('2027-01-10'), lt: day('2027-02-01') }, { gte: day('2027-02-10') }]);
    expect(doc.move_ins).toEqual([{ gte: day('2027-01-10'), lt: day('2027-02-01') }, { gte: day('2027-02-10') }]);
    // One minimum (1 night) from today on: one span of keys.
    expect(doc.minimum_keys).toEqual(minimumKeyRanges(toDayNumber('2027-01-10'), LAST_KEY_DAY, 1));
    expect(doc.fixed_move_ins).toEqual([{ gte: day('2027-01-10'), lt: day('2027-02-01') }, { gte: day('2027-02-10') }]);
    expect(doc.move_outs).toEqual([{ gte: day('2027-01-11'), lt: day('2027-02-02') }, { gte: day('2027-02-11') }]);
    // Price cells: every month from January 2027 to the start horizon, 14 bands of stay lengths at most.
    const cells = Object.keys(doc.price_lo);
    expect(cells).toEqual(Object.keys(doc.price_hi));
    expect(cells).toContain('202701_1');
    expect(cells).toContain('202701_30');
    for (const key of cells) {
      expect(key).toMatch(/^20\d{4}_\d+$/);
      expect(doc.price_lo[key]).toBeLessThanOrEqual(doc.price_hi[key]);
    }
    expect(doc.flex_stays.map((f) => [f.committed_nights, f.move_in])).toEqual([
      [180, [{ gte: day('2027-02-10') }]],
      [365, [{ gte: day('2027-02-10') }]],
    ]);
    expect(doc.pricing).toEqual(expect.objectContaining({ monthly_rate_cents: 300_000, special_offer: home.special_offer, flex_tiers: home.flex_tiers }));
  });

  it('keeps _source as sent: a filtered _source makes Elasticsearch store a second, full copy (_recovery_source)', () => {
    expect(mapping.mappings).not.toHaveProperty('_source');
  });

  it('carries its card whole: the card fields as the document has them, nothing else', () => {
    const card = decodeCard(doc.card);
    expect(Object.keys(card)).toEqual([...CARD_FIELDS]);
    for (const f of CARD_FIELDS) expect(card[f]).toStrictEqual(doc[f]);
  });

  it('is deterministic', () => {
    expect(toHomeDocument(home, property, market, today)).toEqual(doc);
  });
});
