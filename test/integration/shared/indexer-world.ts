/**
 * The shared setup of the indexer tests (test/integration/indexer-*.test.ts) on the real Elasticsearch and
 * Mongo-wire servers: an isolated world (its own database and index alias), seeded with 120 generated
 * homes and indexed once, or bare stores for the tests that need no inventory, and the reads the tests
 * make of the index.
 */
import { connectMongo, type MongoHandle } from '../../../services/kernel/store/mongo';
import { createEsClient, type EsClient } from '../../../services/kernel/store/es-client';
import type { Config } from '../../../services/kernel/config';
import { testConfig, seedWorld, dropWorld } from '../../support/fixture';

export interface IndexerWorld {
  config: Config;
  mongo: MongoHandle;
  es: EsClient;
}

/** A world of 120 homes, seeded and indexed. */
export async function openIndexerWorld(): Promise<IndexerWorld> {
  const config = testConfig();
  const { mongo, es } = await seedWorld(config, 120);
  return { config, mongo, es };
}

/** The same isolated stores, with nothing seeded nor indexed. */
export async function openBareStores(): Promise<IndexerWorld> {
  const config = testConfig();
  return { config, mongo: await connectMongo(config.mongoUrl, config.mongoDb), es: createEsClient(config.esUrl) };
}

export async function closeIndexerWorld(world: Partial<IndexerWorld>): Promise<void> {
  if (world.config && world.mongo && world.es) await dropWorld(world.config, world.mongo, world.es);
}

/** The index reads of the tests, on the world the file opened (read when called). */
export function indexReads(stores: () => { config: Config; es: EsClient }) {
  // The previous index goes at once here; the test of its grace period sets its own.
  const opts = () => ({ alias: stores().config.homesAlias, indexPrefix: stores().config.homesIndexPrefix, retireAfterMs: 0 });

  const count = async (): Promise<number> => (await stores().es.count({ index: stores().config.homesAlias })).count;

  /** Every indexed copy of a home, wherever it is routed (an `ids` search reads every shard). */
  async function copiesOf(id: string): Promise<Array<{ routing: string | undefined; name: string; market_slug: string }>> {
    const res = await stores().es.search<{ name: string; market_slug: string }>({ index: stores().config.homesAlias, query: { ids: { values: [id] } } });
    return res.hits.hits.map((h) => ({ routing: h._routing, name: h._source!.name, market_slug: h._source!.market_slug }));
  }
  /** The one indexed document of a home, or null; two copies fail the test. */
  async function indexedDoc(id: string): Promise<{ name: string } | null> {
    const copies = await copiesOf(id);
    expect(copies.length).toBeLessThanOrEqual(1);
    return copies[0] ?? null;
  }

  return { opts, count, copiesOf, indexedDoc };
}
