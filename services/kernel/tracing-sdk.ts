/**
 * OpenTelemetry's tracing SDK, started only when an OTLP endpoint is configured with the standard
 * variables (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), and not disabled
 * (OTEL_SDK_DISABLED=true, OTEL_TRACES_EXPORTER=none). Without an endpoint none of it is loaded
 * (docs/operations.md, "Traces").
 *
 * Traces only, from the tracing packages alone: the tracer provider, the batch span processor and
 * the OTLP/HTTP exporter, not the all-in-one `@opentelemetry/sdk-node` (its metric and log SDKs, gRPC
 * and Zipkin exporters, loaded even unused, cost a copy about 6 % more processor time per call:
 * docs/decisions.md, "Traces"). The packages read the standard variables themselves: the exporter
 * its endpoint, headers, timeout and compression; the provider OTEL_TRACES_SAMPLER(_ARG) and the span
 * limits; the batch processor OTEL_BSP_*; the resource OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
 * This module reads the two choices between packages: OTEL_EXPORTER_OTLP(_TRACES)_PROTOCOL and
 * OTEL_PROPAGATORS, and refuses at start a value it has no package for.
 */
import { context, propagation, trace, type TextMapPropagator } from '@opentelemetry/api';
import { setTracingOn } from './tracing';

/** Whether the environment asks for traces. */
export function tracingWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  if ((env.OTEL_TRACES_EXPORTER ?? '').split(',').some((e) => e.trim() === 'none')) return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

export interface TracingHandle {
  /** Exports what is left and stops the SDK (the copy's last spans are not lost at a graceful stop). */
  stop(): Promise<void>;
}

const NOTHING: TracingHandle = { stop: async () => undefined };
let running: { users: number; stop: () => Promise<void> } | null = null;

/**
 * Starts the SDK once per process (a second service in the same process shares it); `serviceName`
 * unless OTEL_SERVICE_NAME names one.
 */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): TracingHandle {
  if (!tracingWanted(env)) return NOTHING;
  if (!running) {
    const provider = tracerProvider(serviceName, env);
    setTracingOn(true);
    running = {
      users: 0,
      async stop() {
        setTracingOn(false);
        await provider.shutdown();
        // The API's globals go with it: a later start in this process registers afresh.
        trace.disable();
        context.disable();
        propagation.disable();
      },
    };
  }
  const shared = running;
  shared.users += 1;
  let stopped = false;
  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      shared.users -= 1;
      if (shared.users === 0 && running === shared) {
        running = null;
        await shared.stop();
      }
    },
  };
}

/** The exporter's protocol, as the standard variables name it: OTLP over HTTP, protobuf (the default) or JSON. */
export function otlpProtocol(env: NodeJS.ProcessEnv): 'http/protobuf' | 'http/json' {
  const named = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf').toLowerCase();
  if (named === 'http/protobuf' || named === 'http/json') return named;
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${named} is not supported: traces are exported over HTTP (http/protobuf or http/json)`);
}

/** The propagators OTEL_PROPAGATORS names (W3C trace context and baggage by default), or null for `none`. */
export function propagatorsOf(env: NodeJS.ProcessEnv): Array<'tracecontext' | 'baggage'> | null {
  const names = (env.OTEL_PROPAGATORS ?? '')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) return ['tracecontext', 'baggage'];
  if (names.includes('none')) return null;
  const unknown = names.filter((n) => n !== 'tracecontext' && n !== 'baggage');
  if (unknown.length > 0) throw new Error(`OTEL_PROPAGATORS: ${unknown.join(', ')} not supported (tracecontext, baggage or none)`);
  return [...new Set(names as Array<'tracecontext' | 'baggage'>)];
}

/** The registered provider: OTLP/HTTP export in batches, the resource and propagators the environment names. */
function tracerProvider(serviceName: string, env: NodeJS.ProcessEnv): { shutdown(): Promise<void> } {
  const protocol = otlpProtocol(env);
  const exporterKind = (env.OTEL_TRACES_EXPORTER ?? 'otlp')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (exporterKind.some((e) => e !== 'otlp')) throw new Error(`OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER} is not supported (otlp or none)`);
  const names = propagatorsOf(env);
  // Loaded here, only now: a copy without an endpoint never loads them.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const resources = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const core = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { OTLPTraceExporter } = (
    protocol === 'http/json' ? require('@opentelemetry/exporter-trace-otlp-http') : require('@opentelemetry/exporter-trace-otlp-proto')
  ) as typeof import('@opentelemetry/exporter-trace-otlp-proto');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // The service's own name unless OTEL_SERVICE_NAME names one (the environment's attributes are merged last: they win).
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': serviceName }))
    .merge(resources.detectResources({ detectors: [resources.hostDetector, resources.processDetector, resources.envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())] });
  const propagator: TextMapPropagator | null =
    names === null
      ? null
      : new core.CompositePropagator({
          propagators: names.map((n) => (n === 'tracecontext' ? new core.W3CTraceContextPropagator() : new core.W3CBaggagePropagator())),
        });
  provider.register({ propagator });
  return provider;
}
