/**
 * MongoDB calls timed and traced where the service makes them: the collections of ./collections.ts and
 * the database's `command` behind proxies whose operations (`findOne`, `updateOne`, `find(…).toArray()`,
 * a `ping`, …) tell a listener how long they took (the store metrics: ./store-metrics.ts) and, under a
 * sampled trace, are a client span of their own (`find homes`, with the database, the collection and the
 * operation; never the filter or the documents: a booking intent's holds a guest's email).
 *
 * Not the driver's command monitoring: with it on, the driver decodes every reply a second time, whole,
 * for its `CommandSucceededEvent`, and a copy's processor time per apartment read was 15 % higher with it
 * (docs/decisions.md, "Traces"). An operation here is the command the driver
 * sends for it (`findOneAndUpdate` is `findAndModify`); a cursor is timed where it is read whole
 * (`toArray`) or a document at a time (`next`, `tryNext`); a cursor iterated with `for await` is not.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Collection, Db, Document, MongoClient } from 'mongodb';
import type { Collections } from './collections';
import { tracer, tracingOn } from '../tracing';
import { mongoOperation } from './store-metrics';

/** One MongoDB call as it ended. */
export interface StoreCall {
  operation: string;
  seconds: number;
  failed: boolean;
}

export type StoreCallListener = (call: StoreCall) => void;

/** The command each collection method sends. */
const OPERATIONS: Readonly<Record<string, string>> = {
  findOne: 'find',
  insertOne: 'insert',
  insertMany: 'insert',
  updateOne: 'update',
  updateMany: 'update',
  replaceOne: 'update',
  deleteOne: 'delete',
  deleteMany: 'delete',
  findOneAndUpdate: 'findAndModify',
  findOneAndReplace: 'findAndModify',
  findOneAndDelete: 'findAndModify',
  countDocuments: 'aggregate',
  estimatedDocumentCount: 'count',
  distinct: 'distinct',
  bulkWrite: 'bulkWrite',
  createIndex: 'createIndexes',
  createIndexes: 'createIndexes',
};

/** The collection methods that return a cursor, and the cursor's methods that read from the server. */
const CURSORS: Readonly<Record<string, string>> = { find: 'find', aggregate: 'aggregate' };
const CURSOR_READS = new Set(['toArray', 'next', 'tryNext']);

interface Where {
  database: string;
  collection?: string;
}

/** Runs `call`, timed for `listener`, and as a client span when the active trace is sampled. */
function timed<T>(operation: string, where: Where, listener: StoreCallListener, call: () => Promise<T>): Promise<T> {
  const span =
    tracingOn() && trace.getActiveSpan()?.isRecording()
      ? tracer.startSpan(where.collection ? `${operation} ${where.collection}` : operation, {
          kind: SpanKind.CLIENT,
          attributes: {
            'db.system.name': 'mongodb',
            'db.namespace': where.database,
            'db.operation.name': operation,
            ...(where.collection ? { 'db.collection.name': where.collection } : {}),
          },
        })
      : undefined;
  const started = performance.now();
  const settle = (failed: boolean, err?: unknown): void => {
    listener({ operation, seconds: (performance.now() - started) / 1000, failed });
    if (!span) return;
    if (failed) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', (err as Error | undefined)?.name ?? 'failed');
    }
    span.end();
  };
  let pending: Promise<T>;
  try {
    pending = call();
  } catch (err) {
    settle(true, err);
    throw err;
  }
  return pending.then(
    (value) => {
      settle(false);
      return value;
    },
    (err: unknown) => {
      settle(true, err);
      throw err;
    },
  );
}

type Method = (...args: unknown[]) => unknown;

/** A cursor whose reads are timed; its chained methods (`project`, `sort`, `limit`, …) keep it timed. */
function timedCursor<C extends object>(cursor: C, operation: string, where: Where, listener: StoreCallListener): C {
  const proxy: C = new Proxy(cursor, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = value as Method;
      if (typeof key === 'string' && CURSOR_READS.has(key)) {
        return (...args: unknown[]) => timed(operation, where, listener, () => method.apply(target, args) as Promise<unknown>);
      }
      return (...args: unknown[]) => {
        const out = method.apply(target, args);
        return out === target ? proxy : out;
      };
    },
  });
  return proxy;
}

function timedCollection<C extends Collection<Document>>(collection: C, listener: StoreCallListener): C {
  const where: Where = { database: collection.dbName, collection: collection.collectionName };
  // Each method's wrapper made once per collection: a request's `findOne` allocates nothing for its timing.
  const wrappers = new Map<string, Method>();
  const wrap = (key: string, method: Method): Method => {
    const operation = OPERATIONS[key];
    if (operation) return (...args) => timed(operation, where, listener, () => method.apply(collection, args) as Promise<unknown>);
    const cursor = CURSORS[key];
    if (cursor) return (...args) => timedCursor(method.apply(collection, args) as object, cursor, where, listener);
    return method.bind(collection);
  };
  return new Proxy(collection, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      let wrapper = wrappers.get(key);
      if (!wrapper) wrappers.set(key, (wrapper = wrap(key, value as Method)));
      return wrapper;
    },
  });
}

/** The collections, each call timed for `listener` (and traced while tracing is on). */
export function timedCollections(c: Collections, listener: StoreCallListener): Collections {
  const out: Partial<Record<keyof Collections, unknown>> = {};
  for (const key of Object.keys(c) as Array<keyof Collections>) out[key] = timedCollection(c[key] as unknown as Collection<Document>, listener);
  return out as Collections;
}

/**
 * The database with its calls timed for `listener`: its `command` (a `ping`, by the command's name as the
 * store metrics name it), the
 * collections it hands out and those of its client's databases (the shared rate limits' store:
 * rate-limiter-flexible reads them through `db.client`).
 */
export function timedDb(db: Db, listener: StoreCallListener): Db {
  const where: Where = { database: db.databaseName };
  let client: MongoClient | undefined;
  return new Proxy(db, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (key === 'client') return (client ??= timedClient(target.client, listener));
      if (typeof value !== 'function') return value;
      const method = value as Method;
      if (key === 'collection') return (...args: unknown[]) => timedCollection(method.apply(target, args) as Collection<Document>, listener);
      if (key !== 'command') return method.bind(target);
      return (...args: unknown[]) => {
        const name = Object.keys((args[0] ?? {}) as object)[0] ?? 'command';
        return timed(mongoOperation(name), where, listener, () => method.apply(target, args) as Promise<unknown>);
      };
    },
  });
}

function timedClient(client: MongoClient, listener: StoreCallListener): MongoClient {
  return new Proxy(client, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = value as Method;
      if (key === 'db') return (...args: unknown[]) => timedDb(method.apply(target, args) as Db, listener);
      return method.bind(target);
    },
  });
}
