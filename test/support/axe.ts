/**
 * An accessibility check of the page as it is now: axe-core injected into the page and run on the
 * whole document; the serious and critical violations come back named with where they are.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const AXE = require.resolve('axe-core/axe.min.js');
/**
 * Run through the browser's debugging protocol (page.evaluate), not added as a <script>: the search
 * page's Content-Security-Policy refuses inline script. `;0`: the script's last value is not sent back.
 */
let axeSource: string | undefined;
const injectAxe = (page: Page): Promise<unknown> => page.evaluate(`${(axeSource ??= readFileSync(AXE, 'utf8'))}\n;0`);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** "rule-id (impact): help at selector, selector" for each serious or critical violation. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await injectAxe(page);
  const violations = (await page.evaluate('window.axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations)')) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A screenshot of the whole page, then the accessibility check: no serious or critical violation. */
export async function checkState(page: Page, screenshotPath: string): Promise<void> {
  await page.screenshot({ path: screenshotPath, fullPage: true });
  expect(await seriousViolations(page)).toEqual([]);
}
