/**
 * OpenTelemetry's Node SDK, started only when an OTLP endpoint is configured with the standard
 * variables (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), and not disabled
 * (OTEL_SDK_DISABLED=true). Everything else is the SDK's own reading of the standard OTEL_*
 * variables: OTEL_EXPORTER_OTLP_PROTOCOL (http/protobuf by default, http/json), OTEL_TRACES_SAMPLER
 * and OTEL_TRACES_SAMPLER_ARG, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_PROPAGATORS,
 * OTEL_BSP_*. Without an endpoint the SDK is not even loaded (docs/operations.md, "Traces").
 *
 * Traces only: metrics stay Prometheus's (/metrics) and logs pino's, so the SDK's own metric and log
 * exporters are off unless OTEL_METRICS_EXPORTER / OTEL_LOGS_EXPORTER name one.
 */
import { context, propagation, trace } from '@opentelemetry/api';
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
    env.OTEL_METRICS_EXPORTER ??= 'none';
    env.OTEL_LOGS_EXPORTER ??= 'none';
    // Loaded here, only now: a copy without an endpoint never loads the SDK.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
    const sdk = new NodeSDK({ instrumentations: [], ...(env.OTEL_SERVICE_NAME ? {} : { serviceName }) });
    sdk.start();
    setTracingOn(true);
    running = {
      users: 0,
      async stop() {
        setTracingOn(false);
        await sdk.shutdown();
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
