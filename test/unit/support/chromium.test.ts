/**
 * How `npm test` finds Chromium before minutes of tests (test/support/chromium.ts), and what its
 * first step (test/support/preflight.ts) does when there is none: exit 1 with the one-line hint.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_HINT, findChromium, MAC_APPS } from '../../support/chromium';

const ROOT = path.resolve(__dirname, '../../..');
let dir: string;

/** A file at `dir/sub/name`, executable or not. */
function fakeBinary(sub: string, name: string, executable = true): string {
  mkdirSync(path.join(dir, sub), { recursive: true });
  const file = path.join(dir, sub, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, executable ? 0o755 : 0o644);
  return file;
}

const pathOf = (...subs: string[]): string => subs.map((s) => path.join(dir, s)).join(path.delimiter);

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'chromium-finder-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('findChromium', () => {
  it('takes CHROMIUM_PATH when it is executable, and nothing else when it is not', () => {
    const given = fakeBinary('custom', 'my-chrome');
    fakeBinary('bin', 'chromium');
    expect(findChromium({ CHROMIUM_PATH: given, PATH: pathOf('bin') }, [])).toBe(given);
    const notExecutable = fakeBinary('custom', 'broken', false);
    expect(findChromium({ CHROMIUM_PATH: notExecutable, PATH: pathOf('bin') }, [])).toBeNull();
  });

  it('finds the first executable of the usual names on PATH, by name first (Debian chromium, then Ubuntu chromium-browser, then Chrome)', () => {
    fakeBinary('a', 'chromium', false);
    const ubuntu = fakeBinary('b', 'chromium-browser');
    fakeBinary('a', 'google-chrome');
    expect(findChromium({ PATH: pathOf('a', 'b') }, [])).toBe(ubuntu);
    const debian = fakeBinary('c', 'chromium');
    expect(findChromium({ PATH: pathOf('a', 'b', 'c') }, [])).toBe(debian);
  });

  it('falls back to an installed application, and finds nothing when there is none', () => {
    expect(findChromium({ PATH: pathOf('empty') }, [])).toBeNull();
    const app = fakeBinary('Applications/Chromium.app/Contents/MacOS', 'Chromium');
    expect(findChromium({ PATH: pathOf('empty') }, [path.join(dir, 'missing'), app])).toBe(app);
  });
});

describe("preflight (npm test's first step)", () => {
  const preflight = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/support/preflight.ts')], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });

  // Where a macOS Chromium is installed, nothing-found cannot be staged.
  (MAC_APPS.some(existsSync) ? it.skip : it)('exits 1 with the one-line hint when no Chromium is found', () => {
    const run = preflight({ PATH: pathOf('empty'), HOME: dir });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`npm test: ${CHROMIUM_HINT}\n`);
    // The hint names what to install on Debian, on Ubuntu (a snap) and on macOS, and CHROMIUM_PATH.
    expect(CHROMIUM_HINT).toMatch(/Debian: sudo apt-get install chromium;/);
    expect(CHROMIUM_HINT).toMatch(/Ubuntu: sudo apt-get install chromium-browser.*snap install chromium/);
    expect(CHROMIUM_HINT).toMatch(/brew install --cask chromium/);
    expect(CHROMIUM_HINT).toMatch(/CHROMIUM_PATH/);
  });

  it('exits 0 without a word when CHROMIUM_PATH names an executable and HAProxy is on PATH', () => {
    fakeBinary('tools', 'haproxy');
    const run = preflight({ PATH: pathOf('empty', 'tools'), HOME: dir, CHROMIUM_PATH: fakeBinary('custom', 'chrome') });
    expect({ status: run.status, stderr: run.stderr, stdout: run.stdout }).toEqual({ status: 0, stderr: '', stdout: '' });
  });

  it('exits 1 with a one-line hint when HAProxy is not on PATH (the client-identity test runs it)', () => {
    const run = preflight({ PATH: pathOf('empty'), HOME: dir, CHROMIUM_PATH: fakeBinary('custom', 'chrome') });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^npm test: HAProxy is not on PATH; install it \(Debian\/Ubuntu: 'sudo apt-get install -y haproxy'.*\n$/);
  });
});
