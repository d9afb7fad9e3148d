/**
 * The service as `npm run serve` starts it (services/main.ts), with a control port for the traces bench:
 * `POST /tracing` with a JSON object of OTEL_* variables sets the copy's tracing as those variables over
 * the process's own say (`{"OTEL_SDK_DISABLED": "true"}`: off), the last setting's spans exported first,
 * and answers once it holds. The copy must start with tracing on (an OTLP endpoint in its environment),
 * so that its request spans and its histogram's exemplars are in place for every setting it is put in.
 * The control listens on CONTROL_PORT, on 127.0.0.1.
 */
import { startService } from '../../services/main';
import { serveTracingControl } from './tracing-control';

startService().then(
  (svc) => {
    const control = serveTracingControl(Number(process.env.CONTROL_PORT));
    process.once('SIGTERM', () => {
      control.close();
      void svc.close().then(() => process.exit(0));
    });
  },
  (err: unknown) => {
    process.stderr.write(`service failed to start: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
