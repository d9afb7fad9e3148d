/**
 * ops/prometheus/alerts.yml, checked by Prometheus's own promtool (Debian's package, test/support/promtool.ts):
 * the rules parse, their unit tests (alerts.test.yml) pass, every rule has a case where it fires and one
 * where it stays silent, and those cases catch it (a rule that never fires, or always does, fails them).
 * Each rule pages or waits for a ticket, and links a section of docs/operations.md that exists.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { promtool } from '../support/promtool';

const ROOT = path.resolve(__dirname, '../..');
const RULES = path.join(ROOT, 'ops/prometheus/alerts.yml');
const TESTS = path.join(ROOT, 'ops/prometheus/alerts.test.yml');

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface RuleFile {
  groups: { name: string; rules: Rule[] }[];
}
interface RuleTests {
  rule_files: string[];
  tests: { name: string; alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
}

const rules = (parse(readFileSync(RULES, 'utf8')) as RuleFile).groups.flatMap((g) => g.rules);
const cases = (parse(readFileSync(TESTS, 'utf8')) as RuleTests).tests.flatMap((t) => t.alert_rule_test ?? []);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** promtool test rules on alerts.test.yml with every rule's expression replaced: what it printed, and whether it passed. */
function testWithEvery(expr: string): { status: number | null; output: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-alerts-'));
  try {
    const file = parse(readFileSync(RULES, 'utf8')) as RuleFile;
    for (const rule of file.groups.flatMap((g) => g.rules)) rule.expr = expr;
    writeFileSync(path.join(dir, 'alerts.yml'), stringify(file));
    copyFileSync(TESTS, path.join(dir, 'alerts.test.yml'));
    return promtool(['test', 'rules', 'alerts.test.yml'], dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The alerts promtool names in its failures. */
const failedAlerts = (output: string): Set<string> => new Set([...output.matchAll(/alertname: (\w+)/g)].map((m) => m[1]!));

describe('ops/prometheus/alerts.yml', () => {
  it('passes promtool check rules', () => {
    const { status, output } = promtool(['check', 'rules', RULES]);
    expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(status).toBe(0);
  });

  it('passes its unit tests (promtool test rules alerts.test.yml)', () => {
    const { status, output } = promtool(['test', 'rules', 'alerts.test.yml'], path.dirname(TESTS));
    expect(output).toContain('SUCCESS');
    expect(status).toBe(0);
  });

  it('has, for every rule, a case where it fires and one where it stays silent', () => {
    const names = rules.map((r) => r.alert);
    expect(names.length).toBeGreaterThanOrEqual(12);
    expect(new Set(names).size).toBe(names.length);
    const firing = new Set(cases.filter((c) => (c.exp_alerts ?? []).length > 0).map((c) => c.alertname));
    const silent = new Set(cases.filter((c) => (c.exp_alerts ?? []).length === 0).map((c) => c.alertname));
    expect(names.filter((n) => !firing.has(n))).toEqual([]);
    expect(names.filter((n) => !silent.has(n))).toEqual([]);
    expect([...firing, ...silent].filter((n) => !names.includes(n))).toEqual([]);
  });

  it('has cases that catch every rule that would never fire, and every rule that would always fire', () => {
    const never = testWithEvery('vector(0) > 1');
    expect(never.status).not.toBe(0);
    expect(rules.map((r) => r.alert).filter((n) => !failedAlerts(never.output).has(n))).toEqual([]);
    const always = testWithEvery('vector(1)');
    expect(always.status).not.toBe(0);
    expect(rules.map((r) => r.alert).filter((n) => !failedAlerts(always.output).has(n))).toEqual([]);
  });

  it('pages or files a ticket, with a summary and a runbook section of docs/operations.md that exists', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');
    const anchors = new Set([...doc.matchAll(/^#{2,4} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
    for (const rule of rules) {
      expect({ alert: rule.alert, severity: rule.labels?.severity }).toEqual({ alert: rule.alert, severity: expect.stringMatching(/^(page|ticket)$/) });
      expect(rule.annotations?.summary).toEqual(expect.any(String));
      const link = /^docs\/operations\.md#([a-z0-9_-]+)$/.exec(rule.annotations?.runbook_url ?? '');
      expect({ alert: rule.alert, runbook: link ? anchors.has(link[1]!) : rule.annotations?.runbook_url }).toEqual({ alert: rule.alert, runbook: true });
    }
    expect(rules.filter((r) => r.labels?.severity === 'page').length).toBeGreaterThanOrEqual(6);
  });
});
