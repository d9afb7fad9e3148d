/**
 * The worker's watch on the inventory change log: every `everyMs` it asks whether an entry waits
 * (one id read, kernel/store/inventory-changes.ts) and, when one does, hands over to the schedule's
 * incremental run, so a change recorded by `npm run import` or a writer is searchable within about a
 * second and that run's own time, not at the next minute. A poll, not a change stream: the Mongo-wire
 * servers this runs on need not offer one, and an idle poll a second costs next to nothing
 * (docs/performance.md, "Freshness"). Ticks never overlap: the next is timed from the end of the last.
 */
import type { Collection } from 'mongodb';
import { hasPendingChanges, type InventoryChangeRecord } from '../services/kernel/store/inventory-changes';

export interface ChangeWatch {
  /** Stops asking; resolves once a tick under way (and the run it started) has ended. */
  stop(): Promise<void>;
}

export function watchChanges(
  log: Collection<InventoryChangeRecord>,
  everyMs: number,
  onPending: () => Promise<void>,
  onError: (err: unknown) => void,
): ChangeWatch {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const tick = async (): Promise<void> => {
    try {
      if (await hasPendingChanges(log)) await onPending();
    } catch (err) {
      onError(err);
    }
    if (!stopped) schedule();
  };
  const schedule = (): void => {
    timer = setTimeout(() => {
      current = tick();
    }, everyMs);
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
