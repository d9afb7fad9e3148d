/**
 * The stores and caches one process of the service works with (Deps), opened from the configuration:
 * the service copies (main.ts) and the indexer worker's watch matching (watch-matcher.ts) build them alike.
 */
import { readRoutingKeys, RoutingKeysCache } from './kernel/store/home-routing';
import { esNodesOf, type Config } from './kernel/config';
import type { Deps } from './deps';
import type { Logger } from './kernel/logger';
import { createEsClient } from './kernel/store/es-client';
import { watchNodes, watchTiming } from './kernel/store/node-watch';
import { connectMongo } from './kernel/store/mongo';
import { AggregateCache } from './markets/aggregate-cache';
import { BuildingRecords } from './buildings/building-records';
import { GenerationBuildings } from './buildings/generation-buildings';
import { GenerationReader } from './kernel/store/generation-reader';
import { GenerationAnswers } from './kernel/store/generation-answers';
import { LISTED_PLACES_BYTES, listedPlacesBytes } from './kernel/store/listed-places';
import { mapAnswerBytes } from './tools/search-on-map';
import { placesAnswerBytes } from './search/places/place-suggest';
import { GenerationVocabulary } from './kernel/store/generation-vocabulary';
import { MarketDirectory } from './markets/market-directory';
import { PolicyCache } from './policies/store';
import { ServiceMetrics } from './kernel/metrics';
import { instrumentElasticsearch, mongoCallMetrics } from './kernel/store/store-metrics';
import { timedCollections, timedDb } from './kernel/store/store-calls';
import { tracingOn } from './kernel/tracing';
import { readIndexerHistory } from './kernel/store/index-freshness';
import { MarketExtents, marketExtentsBody, parseMarketExtents } from './kernel/store/market-extents';
import { esTransport } from './search/shared/search-transport';
import { unmetered } from './kernel/store/es-time';

export async function openDeps(config: Config, log: Logger) {
  const esNodes = watchNodes(esNodesOf(config.esUrl), watchTiming(config.storeDeadlineMs));
  const es = createEsClient(config.esUrl, { deadlineMs: config.storeDeadlineMs, watch: esNodes });
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb, { deadlineMs: config.storeDeadlineMs });
  const metrics = new ServiceMetrics(
    async () => {
      const h = await readIndexerHistory(mongo.collections.indexerState);
      return { lastFull: h.last_full_run, lastIncremental: h.last_incremental_run, failures: h.failed_runs };
    },
    undefined,
    { exemplars: tracingOn() },
  );
  instrumentElasticsearch(metrics, es);
  metrics.reportEsNodes(esNodes);
  // Every MongoDB call of the service timed (and traced) where it is made.
  const onMongoCall = mongoCallMetrics(metrics);
  const stores = timedCollections(mongo.collections, onMongoCall);
  const generation = new GenerationReader(stores.indexerState);
  // What is read once per generation for every request trusts the generation only with READ_CACHE (false: read every time).
  const trusted = config.readCache ? generation : { read: async () => null };
  const deps: Deps = {
    config,
    es,
    esNodes,
    routingKeys: new RoutingKeysCache(() => readRoutingKeys(es, config.homesAlias)),
    // Read once per generation for every request: no request's Elasticsearch time. READ_CACHE=false trusts no generation: every shard.
    marketExtents: new MarketExtents(trusted, () =>
      unmetered(async () => parseMarketExtents((await esTransport(es, config.homesAlias, { nodes: esNodes }).aggregate(marketExtentsBody())).aggregations)),
    ),
    mongo: stores,
    db: timedDb(mongo.db, onMongoCall),
    markets: new MarketDirectory(stores, config.cacheTtlMs),
    aggregates: new AggregateCache(config.cacheTtlMs),
    buildings: new BuildingRecords(stores, config.cacheTtlMs),
    generation,
    mapAnswers: new GenerationAnswers(generation, { maxBytes: config.mapCacheBytes, sizeOf: mapAnswerBytes }),
    vocabulary: new GenerationVocabulary(trusted, stores.indexerState, config.homesAlias),
    placeAnswers: new GenerationAnswers(generation, { maxBytes: config.suggestCacheBytes, sizeOf: placesAnswerBytes }),
    // One small answer (a few hundred places), read once per generation for every request: no request's Elasticsearch time.
    listedPlaces: new GenerationAnswers(trusted, {
      maxBytes: LISTED_PLACES_BYTES,
      sizeOf: listedPlacesBytes,
    }),
    homeBuildings: new GenerationBuildings(stores),
    policies: new PolicyCache(stores, config.cacheTtlMs),
    log,
    metrics,
    clock: () => new Date(),
  };
  metrics.reportCaches({
    map_answers: deps.mapAnswers,
    place_answers: deps.placeAnswers,
    building_records: deps.buildings,
    home_buildings: deps.homeBuildings,
  });
  return { deps, esNodes, es, mongo };
}
