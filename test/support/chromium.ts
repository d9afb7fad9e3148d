/**
 * Where the browser tests find Chromium: CHROMIUM_PATH when set, else the first of the usual
 * executables on PATH (Debian's `chromium`, Ubuntu's `chromium-browser`, Google Chrome), then the
 * macOS applications.
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
/** Where macOS installs them (a cask is not put on PATH). */
export const MAC_APPS = ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'];

/** What to do without one, in one line. */
export const CHROMIUM_HINT =
  'The widget tests need Chromium: install it (Debian: sudo apt-get install chromium; Ubuntu: sudo apt-get install chromium-browser, which installs the snap, or sudo snap install chromium; macOS: brew install --cask chromium) or set CHROMIUM_PATH to a Chromium or Chrome executable.';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `apps`: where installed applications are looked for last (the macOS ones; tests pass their own). */
export function findChromium(env: NodeJS.ProcessEnv = process.env, apps: readonly string[] = MAC_APPS): string | null {
  if (env.CHROMIUM_PATH) return executable(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null;
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of NAMES) for (const dir of dirs) if (executable(path.join(dir, name))) return path.join(dir, name);
  return apps.find(executable) ?? null;
}
