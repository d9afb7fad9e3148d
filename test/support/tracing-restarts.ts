/**
 * Run as its own process by test/unit/kernel/tracing-sdk.test.ts (the OTLP exporter loads its HTTP
 * agent with a dynamic import, which Jest's module sandbox refuses): starts and stops tracing as a
 * process embedding the service can, making one run span each time, named after the step.
 */
import { startTracing } from '../../services/kernel/tracing-sdk';
import { runSpan, tracingOn } from '../../services/kernel/tracing';

async function main(): Promise<void> {
  const first = startTracing('tracing-restarts');
  await runSpan('catalog.first_run', {}, async () => undefined);
  await first.stop();
  const stoppedOff = !tracingOn();

  const second = startTracing('tracing-restarts');
  await runSpan('catalog.second_run', {}, async () => undefined);
  await second.stop();

  // Two users of one SDK: the first one's stop leaves it running for the second.
  const a = startTracing('tracing-restarts');
  const b = startTracing('tracing-restarts');
  await a.stop();
  const keptOn = tracingOn();
  await runSpan('catalog.shared_run', {}, async () => undefined);
  await b.stop();
  process.stdout.write(JSON.stringify({ stoppedOff, keptOn, offAtEnd: !tracingOn() }));
}

main().catch((err: unknown) => {
  process.stderr.write(String(err));
  process.exitCode = 1;
});
