/**
 * One isolated world per test file on the real servers: its own Mongo database and its own
 * index alias/prefix, a small generated inventory, a full index build, and the service on a
 * free port. `close()` drops all of it.
 */
import { randomBytes } from 'node:crypto';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadConfig, type Config } from '../../services/kernel/config';
import { startService, type RunningService } from '../../services/main';
import type { DestinationStream } from '../../services/kernel/logger';
import { createEsClient, type EsClient } from '../../services/kernel/store/es-client';
import { connectMongo, type MongoHandle } from '../../services/kernel/store/mongo';
import { seedInventory } from '../../stack/demo/seed-inventory';
import { todayIso } from '../../services/kernel/engine/dates';
import { fullRebuild } from '../../indexer/full-rebuild';
import { generateInventory } from '../../stack/demo/generate';
import { photoPool } from '../../stack/demo/photos';
import { keptPhotoBlob } from './photo-cache';

export interface Fixture {
  config: Config;
  es: EsClient;
  mongo: MongoHandle;
  svc: RunningService;
  /** Base URL of the running service, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Base URL of its admin port (GET /metrics, GET /status). */
  adminUrl: string;
  today: string;
  get(path: string): Promise<{ status: number; body: any; headers: Headers }>;
  /** The SDK 1.x client, on 2025-11-25 (initialize, declaring `capabilities`). */
  mcp(capabilities?: Record<string, unknown>): Promise<McpClient>;
  /** The SDK v2 client, pinned to 2026-07-28 (no handshake, `_meta` envelope). */
  mcpModern(capabilities?: Record<string, unknown>): Promise<ModernClient>;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  const id = randomBytes(4).toString('hex');
  return loadConfig({
    ...process.env,
    PORT: '0',
    ADMIN_PORT: '0',
    // Tests stand for many clients at once from one address; the bounds' own tests set theirs.
    MAX_IN_FLIGHT: '1000',
    MAX_IN_FLIGHT_PER_CLIENT: '1000',
    MAX_IN_FLIGHT_STATIC: '1000',
    MAX_IN_FLIGHT_STATIC_PER_CLIENT: '1000',
    HOST: '127.0.0.1',
    MONGO_DB: `catalog_test_${id}`,
    HOMES_ALIAS: `test-${id}-homes`,
    RATE_LIMIT_POINTS: '1000000',
    RATE_LIMIT_OVERVIEW_POINTS: '1000000',
    RATE_LIMIT_STATIC_POINTS: '1000000',
    // Elasticsearch time is not the same twice: exact-count rate-limit tests settle on bytes alone; its own tests set it.
    RATE_LIMIT_ES_MS_PER_POINT: '1000000000',
    BOOKING_INTENT_ADDRESS_POINTS: '1000000',
    BOOKING_INTENT_EMAIL_POINTS: '1000000',
    LOG_LEVEL: 'silent',
    ...overrides,
  });
}

export async function seedWorld(config: Config, homes: number, seed = 7): Promise<{ mongo: MongoHandle; es: EsClient; today: string }> {
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  const es = createEsClient(config.esUrl);
  const today = todayIso(new Date());
  const inv = generateInventory({ seed, homes, today });
  await seedInventory(mongo.collections, {
    markets: inv.markets,
    properties: inv.properties,
    homes: inv.homes,
    photoIds: photoPool(),
    renderPhoto: keptPhotoBlob,
  });
  await fullRebuild(es, mongo.collections, { alias: config.homesAlias, indexPrefix: config.homesIndexPrefix });
  return { mongo, es, today };
}

export async function dropWorld(config: Config, mongo: MongoHandle, es: EsClient): Promise<void> {
  await es.indices.delete({ index: `${config.homesIndexPrefix}-*`, ignore_unavailable: true, allow_no_indices: true }).catch(() => undefined);
  await mongo.db.dropDatabase().catch(() => undefined);
  await mongo.close();
  await es.close();
}

/**
 * The stack's MongoDB URL with the driver's command events on (the service keeps them off: its calls are
 * timed where it makes them), for a test that counts the service's reads by them.
 */
export function mongoUrlWithCommandEvents(): string {
  const url = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017/';
  return `${url}${url.includes('?') ? '&' : '?'}monitorCommands=true`;
}

export async function startFixture(
  opts: { homes?: number; seed?: number; env?: Record<string, string>; logDestination?: DestinationStream } = {},
): Promise<Fixture> {
  const config = testConfig(opts.env);
  const { mongo, es, today } = await seedWorld(config, opts.homes ?? 150, opts.seed);
  const svc = await startService(config, { logDestination: opts.logDestination });
  const clients: Array<{ close(): Promise<void> }> = [];
  return {
    config,
    es,
    mongo,
    svc,
    url: svc.url,
    adminUrl: svc.adminUrl,
    today,
    async get(path) {
      const res = await fetch(svc.url + path);
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* markdown or empty */
      }
      return { status: res.status, body, headers: res.headers };
    },
    async mcp(capabilities = {}) {
      const client = new McpClient({ name: 'catalog-tests', version: '1.0.0' }, { capabilities });
      await client.connect(new StreamableHTTPClientTransport(new URL(svc.url + '/mcp/public')));
      clients.push(client);
      return client;
    },
    async mcpModern(capabilities = {}) {
      const client = new ModernClient({ name: 'catalog-tests', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new ModernTransport(new URL(svc.url + '/mcp/public')));
      clients.push(client);
      return client;
    },
    async close() {
      for (const c of clients) await c.close().catch(() => undefined);
      await svc.close();
      await dropWorld(config, mongo, es);
    },
  };
}

/** The display city with the most published, undeleted homes of the fixture's world (the widgets' tests search it). */
export async function busiestCity(fx: Pick<Fixture, 'mongo'>): Promise<string> {
  const counts = new Map<string, number>();
  for (const h of await fx.mongo.collections.homes.find({ published: true, deleted_at: null }).toArray())
    counts.set(h.city_slug, (counts.get(h.city_slug) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
}
