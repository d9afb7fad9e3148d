/**
 * An accessibility check of the page as it is now: axe-core injected into the page and run on the
 * whole document; the serious and critical violations come back named with where they are.
 */
import type { Page } from 'playwright-core';

const AXE = require.resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** "rule-id (impact): help at selector, selector" for each serious or critical violation. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.addScriptTag({ path: AXE });
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
