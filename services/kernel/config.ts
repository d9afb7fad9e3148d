/**
 * The one configuration module: defaults beside each option, environment overrides, read once
 * at start (`loadConfig()`); everything else receives the resulting object.
 */
import { hostname } from 'node:os';
import { requestStateConfig, type BookingIntentConfig, type RequestStateConfig } from './config-intents';

export type { BookingIntentConfig, RequestStateConfig } from './config-intents';

export interface RateLimitConfig {
  /** Requests per window per client for ordinary reads and tool calls. */
  points: number;
  /** Requests per window per client for availability_overview_tool (docs/contract.md, availability_overview_tool rule 5: more heavily limited). */
  overviewPoints: number;
  /**
   * Requests per window per client for the page's files and photos (/, /app/*, /media/*): a bucket of
   * its own, so a person's page loads spend nothing of their API budget (docs/decisions.md, "Rate limits").
   */
  staticPoints: number;
  windowSeconds: number;
  /** Counted in MongoDB and shared by every copy (default), or in each process's memory (one copy only). */
  shared: boolean;
  /** Elasticsearch shard-ms (took × shards searched) one point pays for, beside 64 KiB of answer (RATE_LIMIT_ES_MS_PER_POINT). */
  esMsPerPoint: number;
}

/** Shard-ms a point pays for: a market's search page (1 shard, 1-3 ms) stays within its weight; a search of every shard pays for them (docs/performance.md, "Amplification"). */
export const DEFAULT_ES_MS_PER_POINT = 4;

/** Most homes one search prices exactly (~0.4 s of engine work at 5,000 on the bench machine). */
export const DEFAULT_SEARCH_MAX_PRICED = 5_000;

export interface Config {
  port: number;
  host: string;
  /** The admin port (GET /metrics, the whole /status): loopback by default, never the public interface. */
  adminPort: number;
  adminHost: string;
  /** Host names the admin port answers besides loopback ones (ADMIN_ALLOWED_HOSTS): the name Prometheus scrapes it by. */
  adminAllowedHosts: string[];
  /** Open connections one copy accepts; past it, new ones are refused at once (its clients retry elsewhere). */
  maxConnections: number;
  /** Longest a client may take to send a request's headers, and the whole request, before it is cut off. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /**
   * How long an idle keep-alive connection stays open: longer than a balancer keeps its idle
   * connections to the copies, so the balancer always closes first and never sends a request on a
   * connection the copy is closing at that moment.
   */
  keepAliveTimeoutMs: number;
  /** Base address used in links (home_url, reservation_link, photo URLs). */
  publicBaseUrl: string;
  /** The operator's website: apartment pages (home_url) live here. */
  siteBaseUrl: string;
  /** Where guests finish a booking (checkout links point here). */
  checkoutBaseUrl: string;
  /** One Elasticsearch URL or several, comma-separated (kernel/store/es-client.ts, esNodesOf). */
  esUrl: string;
  /**
   * Replicas of each homes index: a number, or `auto` (one replica once the cluster has a second
   * node, none on a single node: `auto_expand_replicas: 0-1`). Set after the bulk load (INDEX_REPLICAS).
   */
  indexReplicas: IndexReplicas;
  /**
   * The host name an indexer's lease records (INDEXER_HOST; the machine's name by default). A worker
   * takes over a lease at once from a holder on its own host whose process is gone; from another
   * host, only once the lease has run out.
   */
  indexerHost: string;
  mongoUrl: string;
  mongoDb: string;
  /** Alias that readers query; the indexer swaps it to a fresh timestamped index. */
  homesAlias: string;
  /** Prefix of the timestamped indexes behind the alias. */
  homesIndexPrefix: string;
  /** Alias of the places index the place box reads (GET /suggest): the homes alias's, `<homes alias>-places` (placesAliasOf). */
  placesAlias: string;
  /** node-cron expressions of the worker. */
  incrementalCron: string;
  /**
   * How often the worker asks whether the change log holds an entry, and runs an incremental run at once
   * when it does (indexer/change-watch.ts); 0 leaves changes to the cron.
   */
  indexerWatchMs: number;
  /** How long the change log must stay quiet after a run that wrote before the worker merges the live index (indexer/schedule.ts). */
  indexerMergeQuietMs: number;
  fullRebuildCron: string;
  /**
   * Addresses (CIDR list) of the reverse proxies in front of the service: X-Forwarded-For is believed
   * only from these peers (transports/client-address.ts). Empty: the peer's own address is the client.
   */
  trustedProxies: string[];
  /** Longest a request to the public API or the tool server may take, all its work together; past it, 503. */
  requestDeadlineMs: number;
  /** Work one copy runs at once, in request weights (a read 1, a viewport search 4); more is shed with 503 and Retry-After, never queued. */
  maxInFlight: number;
  /** The part of it one client may hold at once: a single address cannot take the whole copy. */
  maxInFlightPerClient: number;
  /** The page, its files and photos, bounded apart (each weighs 1): what one copy serves at once, and one client. */
  maxInFlightStatic: number;
  maxInFlightStaticPerClient: number;
  /** Bulk request size and parallelism of the indexer (sized for a 2-core node). */
  indexerFlushBytes: number;
  indexerConcurrency: number;
  /** Worker threads building documents in a full rebuild; 0 = one per core. */
  indexerWorkers: number;
  /** Server-side toggle of the map view (search_apartments_on_map). */
  mapViewEnabled: boolean;
  /** Tile URL template of the search page's map ({z}/{x}/{y}); empty: the offline US basemap the service serves. */
  mapTileUrl: string;
  /** Attribution shown under those tiles (most tile providers require one). */
  mapTileAttribution: string;
  /** A directory where browser bundles are kept by their inputs between processes (BROWSER_BUNDLE_CACHE); null: each process bundles its own. */
  browserBundleCache: string | null;
  /** Most homes one search prices exactly in Node; a search that needs more is refused as too broad. */
  searchMaxPriced: number;
  rateLimit: RateLimitConfig;
  bookingIntents: BookingIntentConfig;
  /** Hosts a watch's webhook may name though they resolve to a loopback, private or link-local address, or speak plain http (WATCH_WEBHOOK_ALLOW_HOSTS). */
  watchWebhookAllowHosts: string[];
  requestState: RequestStateConfig;
  /** Largest accepted request body on POST /mcp/public. */
  bodyLimitBytes: number;
  /** Browser origins allowed on the tool server besides the service's own and loopback ones; '*' allows all (never the default). */
  mcpAllowedOrigins: string[];
  /** Answers the plainest tools/call without an SDK server per request (same answer, a fraction of the CPU). */
  mcpFastToolCalls: boolean;
  /** Lists the official conformance suite's diagnostic tools (its server-stateless scenario); tests only. */
  mcpConformanceTools: boolean;
  logLevel: string;
  /** Longest a request waits for one store call; past it the answer is 503 (the stores may hang). */
  storeDeadlineMs: number;
  /** How long the service keeps the small, hot collections (markets, policies) before re-reading. */
  cacheTtlMs: number;
  /**
   * The apartment read and the quote keep building records while the index generation they were read
   * under is current (buildings/generation-buildings.ts); false reads them from MongoDB every time.
   */
  readCache: boolean;
  /** Bytes of map answers a copy keeps per index generation (MAP_CACHE_MB; 0, or READ_CACHE=false, keeps none). */
  mapCacheBytes: number;
  /** Bytes of place-box answers a copy keeps per index generation (SUGGEST_CACHE_MB; 0, or READ_CACHE=false, keeps none). */
  suggestCacheBytes: number;
  /**
   * `max-age` and `stale-while-revalidate` of a public GET answer (transports/http/caching.ts): a change
   * is searchable within seconds of its import (the worker watches the change log), so 5 s + 5 s keeps a
   * cached answer within about ten seconds of the index.
   */
  httpCache: { maxAgeSeconds: number; staleWhileRevalidateSeconds: number };
}

type Env = Record<string, string | undefined>;

/** Bulk request size and parallelism of the indexer, sized for a 2-core node (the one source of these defaults). */
export const INDEXER_BULK_DEFAULTS = { flushBytes: 2_000_000, concurrency: 2 } as const;

function int(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

/**
 * The node URLs of ES_URL: one URL, or several separated by commas (`http://a:9200,http://b:9200`).
 * Throws on an empty list or anything that is not an http(s) URL, so a typo stops the process at start.
 */
export function esNodesOf(esUrl: string): string[] {
  const nodes = esUrl
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (nodes.length === 0) throw new Error('ES_URL names no Elasticsearch node');
  for (const node of nodes) {
    let url: URL;
    try {
      url = new URL(node);
    } catch {
      throw new Error(`ES_URL: "${node}" is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`ES_URL: "${node}" is not an http(s) URL`);
  }
  return nodes;
}

export type IndexReplicas = number | 'auto';

function replicas(env: Env, name: string): IndexReplicas {
  const raw = (env[name] ?? '').trim();
  if (raw === '' || raw === 'auto') return 'auto';
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a number of replicas or "auto", got "${raw}"`);
  return Number(raw);
}

function str(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

function list(env: Env, name: string): string[] {
  return str(env, name, '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** TRUSTED_PROXIES; the count of hops it replaced trusted any peer that sent the header, so it stops the start. */
function trustedProxyList(env: Env): string[] {
  if (env.TRUSTED_PROXY_HOPS !== undefined && env.TRUSTED_PROXY_HOPS !== '') {
    throw new Error('TRUSTED_PROXY_HOPS is no longer read: set TRUSTED_PROXIES to the balancer addresses (CIDR list), e.g. 10.0.0.0/8');
  }
  return list(env, 'TRUSTED_PROXIES');
}

/** ADMIN_ALLOWED_HOSTS: host names (any port), lower case; a URL, a port or a pattern stops the start. */
function adminAllowedHosts(env: Env): string[] {
  return list(env, 'ADMIN_ALLOWED_HOSTS').map((raw) => {
    const name = raw.toLowerCase().replace(/\.$/, '');
    if (!/^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/.test(name)) {
      throw new Error(`ADMIN_ALLOWED_HOSTS: "${raw}" is not a host name (a name or an address, without scheme or port)`);
    }
    return name;
  });
}

/** The places alias of a homes alias ("homes" -> "homes-places"): every world of homes has its own places, named after it. */
export const placesAliasOf = (homesAlias: string): string => `${homesAlias}-places`;

export function loadConfig(env: Env = process.env): Config {
  const port = int(env, 'PORT', 3000);
  const publicBaseUrl = str(env, 'PUBLIC_BASE_URL', `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: str(env, 'HOST', '0.0.0.0'),
    adminPort: int(env, 'ADMIN_PORT', 9464),
    adminHost: str(env, 'ADMIN_HOST', '127.0.0.1'),
    adminAllowedHosts: adminAllowedHosts(env),
    maxConnections: Math.max(1, int(env, 'MAX_CONNECTIONS', 1_024)),
    headersTimeoutMs: Math.max(1_000, int(env, 'HEADERS_TIMEOUT_MS', 10_000)),
    requestTimeoutMs: Math.max(1_000, int(env, 'REQUEST_TIMEOUT_MS', 30_000)),
    keepAliveTimeoutMs: Math.max(1_000, int(env, 'KEEP_ALIVE_TIMEOUT_MS', 65_000)),
    publicBaseUrl,
    siteBaseUrl: str(env, 'SITE_BASE_URL', publicBaseUrl).replace(/\/+$/, ''),
    checkoutBaseUrl: str(env, 'CHECKOUT_BASE_URL', `${str(env, 'SITE_BASE_URL', publicBaseUrl).replace(/\/+$/, '')}/book`).replace(/\/+$/, ''),
    esUrl: esNodesOf(str(env, 'ES_URL', 'http://127.0.0.1:9200')).join(','),
    indexReplicas: replicas(env, 'INDEX_REPLICAS'),
    indexerHost: str(env, 'INDEXER_HOST', hostname()),
    mongoUrl: str(env, 'MONGO_URL', 'mongodb://127.0.0.1:27017/'),
    mongoDb: str(env, 'MONGO_DB', 'catalog'),
    homesAlias: str(env, 'HOMES_ALIAS', 'homes'),
    homesIndexPrefix: str(env, 'HOMES_INDEX_PREFIX', str(env, 'HOMES_ALIAS', 'homes')),
    placesAlias: placesAliasOf(str(env, 'HOMES_ALIAS', 'homes')),
    incrementalCron: str(env, 'INDEXER_INCREMENTAL_CRON', '* * * * *'),
    indexerWatchMs: Math.max(0, int(env, 'INDEXER_WATCH_MS', 1_000)),
    indexerMergeQuietMs: Math.max(0, int(env, 'INDEXER_MERGE_QUIET_MS', 60_000)),
    fullRebuildCron: str(env, 'INDEXER_FULL_CRON', '17 3 * * *'),
    trustedProxies: trustedProxyList(env),
    requestDeadlineMs: Math.max(100, int(env, 'REQUEST_DEADLINE_MS', 5_000)),
    maxInFlight: Math.max(1, int(env, 'MAX_IN_FLIGHT', 8)),
    maxInFlightPerClient: Math.max(1, int(env, 'MAX_IN_FLIGHT_PER_CLIENT', 6)),
    maxInFlightStatic: Math.max(1, int(env, 'MAX_IN_FLIGHT_STATIC', 32)),
    maxInFlightStaticPerClient: Math.max(1, int(env, 'MAX_IN_FLIGHT_STATIC_PER_CLIENT', 12)),
    indexerFlushBytes: int(env, 'INDEXER_FLUSH_BYTES', INDEXER_BULK_DEFAULTS.flushBytes),
    indexerConcurrency: Math.max(1, int(env, 'INDEXER_CONCURRENCY', INDEXER_BULK_DEFAULTS.concurrency)),
    indexerWorkers: Math.max(0, int(env, 'INDEXER_WORKERS', 0)),
    mapViewEnabled: bool(env, 'MAP_VIEW_ENABLED', true),
    mapTileUrl: str(env, 'MAP_TILE_URL', ''),
    mapTileAttribution: str(env, 'MAP_TILE_ATTRIBUTION', ''),
    browserBundleCache: str(env, 'BROWSER_BUNDLE_CACHE', '') || null,
    searchMaxPriced: int(env, 'SEARCH_MAX_PRICED', DEFAULT_SEARCH_MAX_PRICED),
    rateLimit: {
      points: int(env, 'RATE_LIMIT_POINTS', 300),
      overviewPoints: int(env, 'RATE_LIMIT_OVERVIEW_POINTS', 20),
      staticPoints: int(env, 'RATE_LIMIT_STATIC_POINTS', 1200),
      windowSeconds: int(env, 'RATE_LIMIT_WINDOW_SECONDS', 60),
      shared: bool(env, 'RATE_LIMIT_SHARED', true),
      esMsPerPoint: Math.max(1, int(env, 'RATE_LIMIT_ES_MS_PER_POINT', DEFAULT_ES_MS_PER_POINT)),
    },
    bookingIntents: {
      addressPoints: Math.max(1, int(env, 'BOOKING_INTENT_ADDRESS_POINTS', 10)),
      addressWindowSeconds: Math.max(1, int(env, 'BOOKING_INTENT_ADDRESS_WINDOW_SECONDS', 3_600)),
      emailPoints: Math.max(1, int(env, 'BOOKING_INTENT_EMAIL_POINTS', 5)),
      emailWindowSeconds: Math.max(1, int(env, 'BOOKING_INTENT_EMAIL_WINDOW_SECONDS', 86_400)),
      retentionDays: Math.max(1, int(env, 'BOOKING_INTENT_RETENTION_DAYS', 365)),
    },
    watchWebhookAllowHosts: list(env, 'WATCH_WEBHOOK_ALLOW_HOSTS').map((h) => h.toLowerCase()),
    requestState: requestStateConfig(list(env, 'REQUEST_STATE_SECRETS')),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 256 * 1024),
    mcpAllowedOrigins: list(env, 'MCP_ALLOWED_ORIGINS'),
    mcpFastToolCalls: bool(env, 'MCP_FAST_TOOL_CALLS', true),
    mcpConformanceTools: bool(env, 'MCP_CONFORMANCE_TOOLS', false),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
    storeDeadlineMs: Math.max(100, int(env, 'STORE_DEADLINE_MS', 2_000)),
    cacheTtlMs: int(env, 'CACHE_TTL_SECONDS', 30) * 1_000,
    readCache: bool(env, 'READ_CACHE', true),
    mapCacheBytes: bool(env, 'READ_CACHE', true) ? Math.max(0, int(env, 'MAP_CACHE_MB', 64)) * 1024 * 1024 : 0,
    suggestCacheBytes: bool(env, 'READ_CACHE', true) ? Math.max(0, int(env, 'SUGGEST_CACHE_MB', 8)) * 1024 * 1024 : 0,
    httpCache: {
      maxAgeSeconds: int(env, 'HTTP_MAX_AGE_SECONDS', 5),
      staleWhileRevalidateSeconds: int(env, 'HTTP_STALE_WHILE_REVALIDATE_SECONDS', 5),
    },
  };
}
