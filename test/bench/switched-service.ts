/**
 * The service as `npm run serve` runs it (../../services/main.ts), whose tracing the traces bench
 * switches on and off while it runs (./tracing-switch.ts).
 */
import { startService } from '../../services/main';
import { answerSwitches } from './tracing-switch';

startService().then(
  (svc) => {
    answerSwitches();
    const stop = (): void => void svc.close().then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  },
  (err: unknown) => {
    process.stderr.write(`service failed to start: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
