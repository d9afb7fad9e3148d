/**
 * MongoDB commands as client spans, from the driver's own command monitoring (the events the
 * service's metrics already read: ./store-metrics.ts), not @opentelemetry/instrumentation-mongodb,
 * which patches the driver's internals for the versions it knows (docs/decisions.md, "Traces").
 * A span is made only for a command sent while a traced request or run is active, as its child:
 * `find homes`, with the database, the collection and the command's name; never the command's
 * filter or documents (a booking intent's holds a guest's email).
 *
 * Elasticsearch needs nothing here: its client makes its own spans (`search`, `msearch`, `get`) under
 * the active span once a tracer provider is registered (@elastic/transport's OpenTelemetry support).
 */
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { CommandFailedEvent, CommandStartedEvent, CommandSucceededEvent, MongoClient } from 'mongodb';
import { tracer, tracingOn } from '../tracing';
import { mongoOperation } from './store-metrics';

/** The collection a command names (its first key's value: `{ find: "homes", ... }`), when it is one. */
function collectionOf(e: CommandStartedEvent): string | undefined {
  const value: unknown = (e.command as Record<string, unknown>)[e.commandName];
  return typeof value === 'string' ? value : undefined;
}

/** Spans for the commands of `mongo` (its client must monitor commands: ./mongo.ts). Nothing while tracing is off. */
export function traceMongoCommands(mongo: MongoClient): void {
  if (!tracingOn()) return;
  const open = new Map<number, Span>();
  mongo.on('commandStarted', (e) => {
    if (!trace.getActiveSpan()?.isRecording()) return;
    const operation = mongoOperation(e.commandName);
    const collection = collectionOf(e);
    const span = tracer.startSpan(collection ? `${operation} ${collection}` : operation, {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'mongodb',
        'db.namespace': e.databaseName,
        'db.operation.name': operation,
        ...(collection ? { 'db.collection.name': collection } : {}),
      },
    });
    open.set(e.requestId, span);
  });
  const end = (e: CommandSucceededEvent | CommandFailedEvent, failed: boolean): void => {
    const span = open.get(e.requestId);
    if (!span) return;
    open.delete(e.requestId);
    if (failed) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', (e as CommandFailedEvent).failure?.name ?? 'failed');
    }
    span.end();
  };
  mongo.on('commandSucceeded', (e) => end(e, false));
  mongo.on('commandFailed', (e) => end(e, true));
}
