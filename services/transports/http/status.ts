/**
 * Health of both stores and the freshness of the index: the whole report (alias, index, documents,
 * the indexer's runs) on the admin port's GET /status, and on the public GET /api/public/status only
 * what a public client needs: whether the service answers in full, and how fresh the index is.
 */
import type { Deps } from '../../deps';
import { readFreshness } from '../../kernel/store/index-freshness';
import { within } from '../../kernel/within';

interface StoreHealth {
  ok: boolean;
  detail?: string;
  [field: string]: unknown;
}

/** What /status says of a store that failed: no driver message (it can name hosts); the log has it. */
function unhealthy(deps: Deps, store: string) {
  return (err: Error): StoreHealth => {
    deps.log.warn({ err, store }, 'store health check failed');
    return { ok: false, detail: /no answer within/.test(err.message) ? err.message : 'unreachable' };
  };
}

export async function statusReport(deps: Deps): Promise<Record<string, unknown>> {
  const alias = deps.config.homesAlias;
  const deadline = deps.config.storeDeadlineMs;
  const [es, mongo] = await Promise.all([
    within(
      (async () => {
        const health = await deps.es.cluster.health();
        const exists = await deps.es.indices.existsAlias({ name: alias });
        const target = exists ? (Object.keys(await deps.es.indices.getAlias({ name: alias }))[0] ?? null) : null;
        const documents = target ? (await deps.es.count({ index: alias })).count : 0;
        return { ok: health.status !== 'red', cluster_status: health.status, alias, alias_target: target, documents };
      })(),
      deadline,
    ).catch(unhealthy(deps, 'elasticsearch')),
    within(
      deps.db.command({ ping: 1 }).then((): StoreHealth => ({ ok: true })),
      deadline,
    ).catch(unhealthy(deps, 'mongodb')),
  ]);
  const freshness = mongo.ok ? await within(readFreshness(deps.mongo.indexerState), deadline).catch(() => null) : null;
  const indexLoaded = es.ok && typeof es.alias_target === 'string' && Number(es.documents) > 0;
  return {
    status: es.ok && mongo.ok && indexLoaded ? 'ok' : 'degraded',
    time: deps.clock().toISOString(),
    elasticsearch: es,
    mongodb: mongo,
    index: {
      loaded: indexLoaded,
      alias,
      alias_target: es.alias_target ?? null,
      documents: es.documents ?? null,
      last_run: freshness?.last_run ?? null,
      last_full_run: freshness?.last_full_run ?? null,
    },
  };
}

/** What GET /api/public/status tells anyone: ok or degraded, and when the index last changed. */
export interface PublicStatus {
  status: 'ok' | 'degraded';
  time: string;
  index: { loaded: boolean; updated_at: string | null };
}

export function publicStatus(report: Record<string, unknown>): PublicStatus {
  const index = report.index as { loaded: boolean; last_run: { finished_at?: Date } | null };
  const finished = index.last_run?.finished_at;
  return {
    status: report.status === 'ok' ? 'ok' : 'degraded',
    time: String(report.time),
    index: { loaded: index.loaded, updated_at: finished ? new Date(finished).toISOString() : null },
  };
}
