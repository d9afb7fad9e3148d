/**
 * `npm test`'s first step: what the whole suite needs and a fresh machine may lack, said in one
 * line before minutes of tests, not after. (The servers are started by the suite itself.)
 */
import { CHROMIUM_HINT, findChromium } from './chromium';

if (!findChromium()) {
  process.stderr.write(`npm test: ${CHROMIUM_HINT}\n`);
  process.exit(1);
}
