/**
 * `npm test`'s first step: what the whole suite needs and a fresh machine may lack, said in one
 * line before minutes of tests, not after. (The servers are started by the suite itself.)
 */
import { spawnSync } from 'node:child_process';
import { CHROMIUM_HINT, findChromium } from './chromium';

if (!findChromium()) {
  process.stderr.write(`npm test: ${CHROMIUM_HINT}\n`);
  process.exit(1);
}

// The client-identity test runs the real HAProxy with ops/haproxy.cfg.
const haproxy = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
if (haproxy.error || haproxy.status !== 0) {
  process.stderr.write("npm test: HAProxy is not on PATH; install it (Debian/Ubuntu: 'sudo apt-get install -y haproxy', macOS: 'brew install haproxy')\n");
  process.exit(1);
}
