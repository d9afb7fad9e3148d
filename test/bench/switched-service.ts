/**
 * The service as `npm run serve` runs it (../../services/main.ts), whose tracing the traces bench
 * switches on and off while it runs (./tracing-switch.ts).
 */
import { serveUntilStopped } from '../../services/main';
import { answerSwitches } from './tracing-switch';

serveUntilStopped(() => answerSwitches());
