/**
 * GET /livez and GET /readyz, for load balancers and orchestrators. Liveness: the process answers.
 * Readiness: Elasticsearch answers within the store deadline and the homes alias points at an
 * index, and MongoDB answers a ping; otherwise 503 with the error object (docs/contract.md, "Errors") naming the parts
 * that are not ready (never a host name or a driver message: the log has those).
 */
import type { Deps } from '../../deps';
import { ApiError } from '../../kernel/errors';
import { within } from '../../kernel/within';
import { onceMore } from '../../kernel/store/es-client';

interface Part {
  name: string;
  problem: string | null;
}

async function elasticsearch(deps: Deps): Promise<Part> {
  const alias = deps.config.homesAlias;
  try {
    const targets = await within(
      onceMore(deps.esNodes, (attempt) => deps.es.indices.getAlias({ name: alias }, { ignore: [404], maxRetries: 0, ...attempt })).then((res) =>
        Object.keys(res).filter((k) => k !== 'error' && k !== 'status'),
      ),
      deps.config.storeDeadlineMs,
    );
    return { name: 'elasticsearch', problem: targets.length > 0 ? null : `the ${alias} alias points at no index yet` };
  } catch (err) {
    deps.log.warn({ err, store: 'elasticsearch' }, 'readiness check failed');
    return { name: 'elasticsearch', problem: `no answer within ${deps.config.storeDeadlineMs} ms` };
  }
}

async function mongodb(deps: Deps): Promise<Part> {
  try {
    await within(deps.db.command({ ping: 1 }), deps.config.storeDeadlineMs);
    return { name: 'mongodb', problem: null };
  } catch (err) {
    deps.log.warn({ err, store: 'mongodb' }, 'readiness check failed');
    return { name: 'mongodb', problem: `no answer within ${deps.config.storeDeadlineMs} ms` };
  }
}

export function liveness(): { status: 'ok' } {
  return { status: 'ok' };
}

/** Resolves when ready; throws a 503 ApiError naming what is not. */
export async function readiness(deps: Deps): Promise<{ status: 'ready'; elasticsearch: 'ok'; mongodb: 'ok' }> {
  const parts = await Promise.all([elasticsearch(deps), mongodb(deps)]);
  const failing = parts.filter((p) => p.problem !== null);
  if (failing.length > 0) {
    const what = failing.map((p) => `${p.name} (${p.problem})`).join('; ');
    throw new ApiError('service_unavailable', `Not ready: ${what}.`, 503, { 'Retry-After': '5' });
  }
  return { status: 'ready', elasticsearch: 'ok', mongodb: 'ok' };
}
