/**
 * Store calls into the service's metrics: every Elasticsearch request (the client's diagnostic
 * events) and every MongoDB call the service makes (timed where it is made: ./store-calls.ts), by
 * operation and outcome. Operations come from fixed lists; anything else is `other`.
 */
import { performance } from 'node:perf_hooks';
import type { Client as EsClient } from '@elastic/elasticsearch';
import type { ServiceMetrics } from '../metrics';
import type { StoreCallListener } from './store-calls';

const ES_OPERATIONS = new Set(['_search', '_msearch', '_count', '_mget', '_doc', '_alias', '_aliases', '_mapping']);
const MONGO_OPERATIONS = new Set([
  'find',
  'insert',
  'update',
  'delete',
  'findAndModify',
  'aggregate',
  'count',
  'distinct',
  'bulkWrite',
  'ping',
  'createIndexes',
]);

/** `/homes/_search` → `search`, `/_cluster/health` → `health`, `/` → `info`. */
export function esOperation(path: string): string {
  const parts = path.split('?')[0].split('/').filter(Boolean);
  if (parts.length === 0) return 'info';
  if (parts[0] === '_cluster' && parts[1] === 'health') return 'health';
  const named = [...parts].reverse().find((p) => p.startsWith('_'));
  return named && ES_OPERATIONS.has(named) ? named.slice(1) : 'other';
}

export function mongoOperation(commandName: string): string {
  return MONGO_OPERATIONS.has(commandName) ? commandName : 'other';
}

export function instrumentElasticsearch(metrics: ServiceMetrics, es: EsClient): void {
  const started = new Map<unknown, number>();
  es.diagnostic.on('request', (err, result) => {
    // A request that failed before it was sent gets no response event: not timed.
    if (result && !err) started.set(result.meta.request.id, performance.now());
  });
  es.diagnostic.on('response', (err, result) => {
    if (!result) return;
    const t0 = started.get(result.meta.request.id);
    started.delete(result.meta.request.id);
    if (t0 === undefined) return;
    const operation = esOperation(result.meta.request.params.path);
    // A 404 of an alias or document lookup is an answer, not a failure of the store.
    const failed = err !== null && (result.statusCode ?? 0) !== 404;
    metrics.storeDuration.observe({ store: 'elasticsearch', operation, outcome: failed ? 'failed' : 'ok' }, (performance.now() - t0) / 1000);
  });
}

/** The MongoDB calls' listener (./store-calls.ts) that times them into the metrics. */
export function mongoCallMetrics(metrics: ServiceMetrics): StoreCallListener {
  return ({ operation, seconds, failed }) =>
    metrics.storeDuration.observe({ store: 'mongodb', operation: mongoOperation(operation), outcome: failed ? 'failed' : 'ok' }, seconds);
}
