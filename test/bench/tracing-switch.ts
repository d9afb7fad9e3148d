/**
 * Tracing switched on and off inside a running copy, for the traces bench (traces-bench.ts): a copy
 * started with an OTLP endpoint (the SDK loaded and registered) obeys the bench's commands on its IPC
 * channel. Off, every helper of the service takes its off path (one boolean test, as in a copy started
 * without an endpoint); on, the SDK's sampler decides again. `flush` exports the spans the batch
 * processor holds, so the bench counts them with the calls that made them.
 */
import { trace, type ProxyTracerProvider } from '@opentelemetry/api';
import { setTracingOn } from '../../services/kernel/tracing';
import { tracingWanted } from '../../services/kernel/tracing-sdk';

export type SwitchCommand = { tracing: boolean } | { flush: true };
export type SwitchMessage = SwitchCommand & { id: number };
export interface SwitchAnswer {
  done: number;
  error?: string;
}

async function obey(command: SwitchCommand): Promise<void> {
  // Only a copy whose SDK started can be switched on: otherwise "on" would trace into the API's no-op provider.
  if (!tracingWanted()) throw new Error('this copy started without an OTLP endpoint: its tracing cannot be switched');
  if ('tracing' in command) return setTracingOn(command.tracing);
  const provider = (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() as { forceFlush?: () => Promise<void> };
  await provider.forceFlush?.();
}

/** Answers the bench's switch commands on this process's IPC channel (nothing without one). */
export function answerSwitches(): void {
  const send = process.send?.bind(process);
  if (!send) return;
  process.on('message', (message: SwitchMessage) => {
    const answer = (a: SwitchAnswer): void => void send(a);
    obey(message).then(
      () => answer({ done: message.id }),
      (err: unknown) => answer({ done: message.id, error: String(err) }),
    );
  });
}
