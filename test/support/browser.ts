/**
 * One Chromium for a test run, not one per file: the run's setup starts a Playwright browser server
 * (test/support/global-setup.ts) and each file connects to it with contexts of its own. A file run
 * outside that setup launches its own.
 */
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { CHROMIUM_HINT, findChromium } from './chromium';

/** Where the run's browser server listens (set by the setup, read by every worker). */
export const BROWSER_ENDPOINT = 'CATALOG_TEST_BROWSER_WS';

export async function openBrowser(): Promise<Browser> {
  const endpoint = process.env[BROWSER_ENDPOINT];
  if (endpoint) return chromium.connect(endpoint);
  const executablePath = findChromium();
  if (!executablePath) throw new Error(CHROMIUM_HINT);
  return chromium.launch({ executablePath });
}

/** The run's browser server, or none where Chromium is not installed (the browser tests then say so). */
export async function startBrowserServer(): Promise<BrowserServer | undefined> {
  const executablePath = findChromium();
  if (!executablePath) return undefined;
  const server = await chromium.launchServer({ executablePath });
  process.env[BROWSER_ENDPOINT] = server.wsEndpoint();
  return server;
}
