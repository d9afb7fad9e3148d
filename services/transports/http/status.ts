/** GET /api/public/status: health of both stores and the freshness of the index. */
import type { Deps } from '../../deps';
import { readFreshness } from '../../../indexer/freshness';

interface StoreHealth {
  ok: boolean;
  detail?: string;
}

async function timed<T>(work: Promise<T>, ms = 3_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function statusReport(deps: Deps): Promise<Record<string, unknown>> {
  const alias = deps.config.homesAlias;
  const [es, mongo] = await Promise.all([
    timed(
      (async () => {
        const health = await deps.es.cluster.health();
        const exists = await deps.es.indices.existsAlias({ name: alias });
        const target = exists ? Object.keys(await deps.es.indices.getAlias({ name: alias }))[0] ?? null : null;
        const documents = target ? (await deps.es.count({ index: alias })).count : 0;
        return { ok: health.status !== 'red', cluster_status: health.status, alias, alias_target: target, documents };
      })(),
    ).catch((err: Error): StoreHealth & Record<string, unknown> => ({ ok: false, detail: err.message })),
    timed(deps.db.command({ ping: 1 }).then(() => ({ ok: true }))).catch(
      (err: Error): StoreHealth => ({ ok: false, detail: err.message }),
    ),
  ]);
  const freshness = mongo.ok ? await timed(readFreshness(deps.mongo.indexerState)).catch(() => null) : null;
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
