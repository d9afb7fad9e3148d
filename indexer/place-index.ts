/**
 * The places index behind the place box (GET /api/public/suggest): one small document per market,
 * display city, neighbourhood and building that has a searchable home (../services/kernel/text/place-suggestions.ts),
 * read from the homes alias as it stands after a run's writes and from the markets' names. Each
 * change of the set builds a fresh timestamped index behind the places alias and swaps it in, as a
 * full rebuild does for homes: the box never reads a half-written set. A set equal to the one the
 * alias holds (its digest is kept in the index's `_meta`) writes nothing, so the common incremental
 * run (prices, calendars) costs one aggregation here. The aliases of one homes index (a version's, and
 * the unversioned one when it points at the same index) share one places index, read and written once
 * a run (docs/decisions.md, "Versioned aliases").
 */
import { createHash } from 'node:crypto';
import { errors, type Client } from '@elastic/elasticsearch';
import mapping from '../mappings/places.json';
import { placesAliasOf, type IndexReplicas } from '../services/kernel/config';
import type { Collections } from '../services/kernel/store/collections';
import { SEARCHABLE } from '../services/kernel/store/searchable';
import { placeDocuments, placeId, type HomePlaces, type PlaceDocument } from '../services/kernel/text/place-suggestions';
import { aliasTargets, deleteIndexes, orphanIndexes, replicaSettings, timestampedIndexName } from './es-admin';
import { bulkLoad } from './bulk-load';

/** The version of mappings/places.json an index was created with: an index of another version is replaced whatever its places. */
export const PLACES_MAPPING_VERSION = createHash('sha256').update(JSON.stringify(mapping)).digest('hex').slice(0, 16);

/** Combinations read per page of the composite aggregation. */
const PAGE = 5_000;

/** Every distinct combination of places of the searchable homes the alias holds, paged with a composite aggregation. */
export async function searchablePlaces(es: Client, homesAlias: string): Promise<HomePlaces[]> {
  const rows: HomePlaces[] = [];
  let after: Record<string, string | null> | undefined;
  for (;;) {
    const res = await es.search({
      index: homesAlias,
      size: 0,
      query: SEARCHABLE,
      aggregations: {
        places: {
          composite: {
            size: PAGE,
            sources: [
              { market_slug: { terms: { field: 'market_slug' } } },
              { property_slug: { terms: { field: 'property_slug' } } },
              { property_name: { terms: { field: 'property_name' } } },
              { city_slug: { terms: { field: 'city_slug' } } },
              { city_name: { terms: { field: 'city_name' } } },
              { neighborhood_slug: { terms: { field: 'neighborhood_slug', missing_bucket: true } } },
            ],
            ...(after ? { after: after as Record<string, string> } : {}),
          },
        },
      },
    });
    const agg = (res.aggregations?.places ?? {}) as { buckets?: Array<{ key: Record<string, string | null> }>; after_key?: Record<string, string | null> };
    for (const { key } of agg.buckets ?? []) {
      rows.push({
        market_slug: String(key.market_slug),
        property_slug: String(key.property_slug),
        property_name: String(key.property_name),
        city_slug: String(key.city_slug),
        city_name: String(key.city_name),
        neighborhood_slug: key.neighborhood_slug ?? null,
      });
    }
    if (!agg.after_key || (agg.buckets ?? []).length < PAGE) return rows;
    after = agg.after_key;
  }
}

/** The digest of a set of places: equal sets, equal digests (the documents come sorted by id). */
export function placesDigest(docs: readonly PlaceDocument[]): string {
  return createHash('sha256').update(PLACES_MAPPING_VERSION).update(JSON.stringify(docs)).digest('hex').slice(0, 32);
}

/** The `_meta` of `index`, or null. */
async function metaOf(es: Client, index: string): Promise<Record<string, unknown> | null> {
  const res = await es.indices.getMapping({ index });
  return (res[index]?.mappings?._meta as Record<string, unknown> | undefined) ?? null;
}

/** The one index every places alias named points at; null when one has none, several, or another than the rest. */
async function sharedTarget(es: Client, aliases: readonly string[]): Promise<string | null> {
  const targets = await Promise.all(aliases.map((a) => aliasTargets(es, a)));
  const first = targets[0]?.[0];
  return first !== undefined && targets.every((t) => t.length === 1 && t[0] === first) ? first : null;
}

/**
 * Whether the places aliases of `homesAliases` (aliases of one homes index) exist, point at one places
 * index together, and that index was made from this version of mappings/places.json.
 */
export async function placesCurrent(es: Client, homesAliases: readonly string[]): Promise<boolean> {
  const shared = await sharedTarget(es, homesAliases.map(placesAliasOf));
  return shared !== null && (await metaOf(es, shared))?.mapping_version === PLACES_MAPPING_VERSION;
}

/** Of `names`, the indexes no alias points at (a places alias of another homes alias may still read one). */
async function unaliased(es: Client, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  let res: Record<string, { aliases?: Record<string, unknown> }>;
  try {
    res = await es.indices.getAlias({ index: names.join(','), ignore_unavailable: true });
  } catch (err) {
    if (err instanceof errors.ResponseError && err.statusCode === 404) return [];
    throw err;
  }
  return names.filter((n) => n in res && Object.keys(res[n].aliases ?? {}).length === 0);
}

export interface PlacesSync {
  places: number;
  /** Whether a new places index was swapped in (false: the aliases already held this set, or were pointed at the index that did). */
  written: boolean;
}

/**
 * Makes the places aliases of `homesAliases` hold exactly the places of the searchable homes their homes
 * index holds now. The aliases name one homes index (a version's alias, and the unversioned alias when it
 * points at the same index): the set is read and written once, into one places index named after the
 * first alias's places alias, and every places alias is pointed at it in one atomic call. Called by both
 * runs inside their generation moves, after their writes are visible.
 */
export async function syncPlaces(
  es: Client,
  c: Collections,
  homesAliases: readonly string[],
  replicas: IndexReplicas = 'auto',
  now = new Date(),
): Promise<PlacesSync> {
  if (homesAliases.length === 0) throw new Error('syncPlaces: no homes alias');
  const aliases = [...new Set(homesAliases.map(placesAliasOf))];
  const owner = aliases[0];
  const [rows, markets] = await Promise.all([
    searchablePlaces(es, homesAliases[0]),
    c.markets.find({}, { projection: { slug: 1, name: 1, neighborhoods: 1 } }).toArray(),
  ]);
  const docs = placeDocuments(rows, markets);
  const digest = placesDigest(docs);
  // A set swapped out by an earlier sync goes here, a run later: a suggestion still reading it then has long
  // ended. Never an index some places alias still points at (another homes alias's, not synced in this call).
  const swappedOut = (await Promise.all(aliases.map((a) => orphanIndexes(es, a, a)))).flat();
  await deleteIndexes(es, await unaliased(es, [...new Set(swappedOut)]));

  const previous = await Promise.all(aliases.map((a) => aliasTargets(es, a)));
  const ownerTargets = previous[0];
  let next: string | null = null;
  // The owner's index already holds this set: the others are pointed at it (nothing written when they are).
  if (ownerTargets.length === 1 && (await metaOf(es, ownerTargets[0]))?.places_digest === digest) {
    next = ownerTargets[0];
    if (previous.every((t) => t.length === 1 && t[0] === next)) return { places: docs.length, written: false };
    await pointAliases(es, aliases, previous, next);
    return { places: docs.length, written: false };
  }
  next = timestampedIndexName(owner, now);
  try {
    await es.indices.create({
      index: next,
      settings: mapping.settings,
      mappings: { ...mapping.mappings, _meta: { mapping_version: PLACES_MAPPING_VERSION, places_digest: digest } } as never,
    });
    await bulkLoad<PlaceDocument>(es, {
      datasource: (async function* () {
        yield* docs;
      })(),
      onDocument: (doc) => ({ index: { _index: next!, _id: placeId(doc) } }),
    });
    await es.indices.putSettings({ index: next, settings: { refresh_interval: '1s', index: replicaSettings(replicas) } });
    await es.indices.refresh({ index: next });
    const { count } = await es.count({ index: next });
    if (count !== docs.length) throw new Error(`places index ${next} holds ${count} documents but ${docs.length} were sent`);
    await pointAliases(es, aliases, previous, next);
  } catch (err) {
    await deleteIndexes(es, [next]).catch(() => undefined);
    throw err;
  }
  return { places: docs.length, written: true };
}

/** Every places alias onto `next` and away from what it pointed at, in one atomic call (the first alias also away from any index of its own name). */
async function pointAliases(es: Client, aliases: readonly string[], previous: readonly string[][], next: string): Promise<void> {
  await es.indices.updateAliases({
    actions: [
      ...aliases.flatMap((alias, i) => previous[i].filter((p) => p !== next).map((index) => ({ remove: { index, alias } }))),
      // Also any of the owner's indexes that gained its alias since we read it: the alias ends on `next` alone.
      { remove: { index: `${aliases[0]}-*`, alias: aliases[0], must_exist: false } },
      ...aliases.map((alias) => ({ add: { index: next, alias, is_write_index: true } })),
    ],
  });
}
