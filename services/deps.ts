/** What handlers may use: the stores, configuration, a logger and the clock. Built once at start. */
import type { Client as EsClient } from '@elastic/elasticsearch';
import type { Config } from './kernel/config';
import type { Db } from 'mongodb';
import type { Logger } from './kernel/logger';
import type { Collections } from './kernel/store/collections';
import type { AggregateCache } from './markets/aggregate-cache';
import type { BuildingRecords } from './buildings/building-records';
import type { GenerationBuildings } from './buildings/generation-buildings';
import type { GenerationReader } from './kernel/store/generation-reader';
import type { GenerationAnswers } from './kernel/store/generation-answers';
import type { GenerationVocabulary } from './kernel/store/generation-vocabulary';
import type { MapAnswer } from './contracts/search-output';
import type { ListedPlaces } from './kernel/store/listed-places';
import type { PlacesAnswer } from './kernel/text/place-suggestions';
import type { MarketDirectory } from './markets/market-directory';
import type { PolicyCache } from './policies/store';
import type { ServiceMetrics } from './kernel/metrics';
import type { NodeWatch } from './kernel/store/node-watch';
import type { RoutingKeysCache } from './kernel/store/home-routing';
import type { MarketExtents } from './kernel/store/market-extents';

export interface Deps {
  config: Config;
  es: EsClient;
  /** The Elasticsearch nodes that answer now, when ES_URL names several (searches prefer those). */
  esNodes: NodeWatch;
  /** Each market's routing key, as the indexer gave it: a market's searches read its shard alone (kernel/store/home-routing.ts). */
  routingKeys: RoutingKeysCache;
  /** Each market's extent under the current index generation: a shape without a market reads the shards of the markets it meets. */
  marketExtents: MarketExtents;
  mongo: Collections;
  /** For health checks (ping); handlers use the typed collections. */
  db: Db;
  /** Market records, cached briefly (CACHE_TTL_SECONDS): read these, not the collection. */
  markets: MarketDirectory;
  /** Market-wide aggregations (market filters, market info), cached the same way. */
  aggregates: AggregateCache;
  /** Building records for the building search's cards, cached the same way. */
  buildings: BuildingRecords;
  /** The index generation, read after the request asked (READ_CACHE): what decides whether a kept record may serve. */
  generation: GenerationReader;
  /** The map's answers, kept while the index generation is unchanged (MAP_CACHE_MB; READ_CACHE=false keeps none). */
  mapAnswers: GenerationAnswers<MapAnswer>;
  /** The words the homes index holds, read once per index generation: a word search's typos and prefixes are asked for exactly (READ_CACHE=false reads none). */
  vocabulary: GenerationVocabulary;
  /** The place box's answers, kept the same way (SUGGEST_CACHE_MB). */
  placeAnswers: GenerationAnswers<PlacesAnswer>;
  /** The markets and cities search can return a home in, read once per index generation for every request (READ_CACHE=false: every time). */
  listedPlaces: GenerationAnswers<ListedPlaces>;
  /** Building records for the apartment read and the quote, kept while the index generation is unchanged. */
  homeBuildings: GenerationBuildings;
  /** Policy entries, cached the same way. */
  policies: PolicyCache;
  log: Logger;
  /** Prometheus metrics of this copy of the service (GET /metrics). */
  metrics: ServiceMetrics;
  /** The only clock the request path reads; tests pass a fixed one. */
  clock: () => Date;
}
