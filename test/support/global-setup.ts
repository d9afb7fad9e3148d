/**
 * Finds the real servers the integration tests talk to, in this order (docs/design.md, "Real parts"):
 * ES_URL/MONGO_URL when given; else containers through testcontainers when a Docker engine
 * answers; else the project's local stack (`stack/start.sh`). Nothing is ever mocked.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { BrowserServer } from 'playwright-core';
import { startBrowserServer } from './browser';

interface Started {
  stop: () => Promise<void>;
}

declare global {
  var __CATALOG_TEST_STACK__: Started | undefined;
  var __CATALOG_TEST_BROWSER__: BrowserServer | undefined;
}

async function dockerAnswers(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

async function startContainers(): Promise<Started> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const es = await new GenericContainer('docker.elastic.co/elasticsearch/elasticsearch:8.19.21')
    .withEnvironment({ 'discovery.type': 'single-node', 'xpack.security.enabled': 'false', ES_JAVA_OPTS: '-Xms512m -Xmx512m' })
    .withExposedPorts(9200)
    .withWaitStrategy(Wait.forHttp('/_cluster/health', 9200).forStatusCode(200))
    .withStartupTimeout(180_000)
    .start();
  const mongo = await new GenericContainer('mongo:7').withExposedPorts(27017).start();
  process.env.ES_URL = `http://${es.getHost()}:${es.getMappedPort(9200)}`;
  process.env.MONGO_URL = `mongodb://${mongo.getHost()}:${mongo.getMappedPort(27017)}/`;
  return {
    stop: async () => {
      await es.stop();
      await mongo.stop();
    },
  };
}

function startLocalStack(): void {
  const root = path.resolve(__dirname, '../..');
  const out = execFileSync('bash', [path.join(root, 'stack/start.sh')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 15 * 60_000,
  });
  for (const line of out.split('\n')) {
    const m = /^(ES_URL|MONGO_URL)=(\S+)$/.exec(line.trim());
    if (m) process.env[m[1]] = m[2];
  }
}

async function startStores(): Promise<void> {
  if (process.env.ES_URL && process.env.MONGO_URL) return;
  if (await dockerAnswers()) {
    globalThis.__CATALOG_TEST_STACK__ = await startContainers();
    return;
  }
  startLocalStack();
  if (!process.env.ES_URL || !process.env.MONGO_URL) {
    throw new Error('stack/start.sh did not report ES_URL and MONGO_URL');
  }
}

export default async function globalSetup(): Promise<void> {
  // Every service a test starts (in a worker or as a child process) reads its browser bundles from here while
  // their inputs are unchanged, rather than running esbuild each time (services/kernel/bundle-cache.ts).
  process.env.BROWSER_BUNDLE_CACHE ??= path.resolve(__dirname, '../../node_modules/.cache/catalog-bundles');
  await startStores();
  globalThis.__CATALOG_TEST_BROWSER__ = await startBrowserServer();
}
