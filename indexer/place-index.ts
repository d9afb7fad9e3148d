/**
 * The places index behind the place box (GET /api/public/suggest): one small document per market,
 * display city, neighbourhood and building that has a searchable home (../services/kernel/text/place-suggestions.ts),
 * read from the homes alias as it stands after a run's writes and from the markets' names. Each
 * change of the set builds a fresh timestamped index behind the places alias and swaps it in, as a
 * full rebuild does for homes: the box never reads a half-written set. A set equal to the one the
 * alias holds (its digest is kept in the index's `_meta`) writes nothing, so the common incremental
 * run (prices, calendars) costs one aggregation here.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import mapping from '../mappings/places.json';
import { placesAliasOf, type IndexReplicas } from '../services/kernel/config';
import type { Collections } from '../services/kernel/store/collections';
import { SEARCHABLE } from '../services/kernel/store/searchable';
import { placeDocuments, placeId, type HomePlaces, type PlaceDocument } from '../services/kernel/text/place-suggestions';
import { aliasTargets, deleteIndexes, orphanIndexes, replicaSettings, swapAlias, timestampedIndexName } from './es-admin';
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

/** The `_meta` of the one index the places alias points at; null without exactly one. */
async function liveMeta(es: Client, alias: string): Promise<Record<string, unknown> | null> {
  const targets = await aliasTargets(es, alias);
  if (targets.length !== 1) return null;
  const res = await es.indices.getMapping({ index: targets[0] });
  return (res[targets[0]]?.mappings?._meta as Record<string, unknown> | undefined) ?? null;
}

/** Whether the places alias exists and was made from this version of mappings/places.json. */
export async function placesCurrent(es: Client, homesAlias: string): Promise<boolean> {
  return (await liveMeta(es, placesAliasOf(homesAlias)))?.mapping_version === PLACES_MAPPING_VERSION;
}

export interface PlacesSync {
  places: number;
  /** Whether a new places index was swapped in (false: the alias already held this set). */
  written: boolean;
}

/**
 * Makes the places alias hold exactly the places of the searchable homes that `homesAlias` holds now.
 * Called by both runs inside their generation moves, after their writes are visible.
 */
export async function syncPlaces(es: Client, c: Collections, homesAlias: string, replicas: IndexReplicas = 'auto', now = new Date()): Promise<PlacesSync> {
  const alias = placesAliasOf(homesAlias);
  const [rows, markets] = await Promise.all([
    searchablePlaces(es, homesAlias),
    c.markets.find({}, { projection: { slug: 1, name: 1, neighborhoods: 1 } }).toArray(),
  ]);
  const docs = placeDocuments(rows, markets);
  const digest = placesDigest(docs);
  // A set swapped out by an earlier sync goes here, a run later: a suggestion still reading it then has long ended.
  await deleteIndexes(es, await orphanIndexes(es, alias, alias));
  if ((await liveMeta(es, alias))?.places_digest === digest) return { places: docs.length, written: false };

  const previous = await aliasTargets(es, alias);
  const next = timestampedIndexName(alias, now);
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
      onDocument: (doc) => ({ index: { _index: next, _id: placeId(doc) } }),
    });
    await es.indices.putSettings({ index: next, settings: { refresh_interval: '1s', index: replicaSettings(replicas) } });
    await es.indices.refresh({ index: next });
    const { count } = await es.count({ index: next });
    if (count !== docs.length) throw new Error(`places index ${next} holds ${count} documents but ${docs.length} were sent`);
    await swapAlias(es, alias, alias, next, previous);
  } catch (err) {
    await deleteIndexes(es, [next]).catch(() => undefined);
    throw err;
  }
  return { places: docs.length, written: true };
}
