/**
 * The board (ops/grafana/catalog.json) and the alert rules (ops/prometheus/alerts.yml) read only metrics
 * the service exports: the real service is started on the real stack and scraped, every PromQL expression
 * is parsed (test/support/promql.ts) and each metric it selects must be a family of that scrape. A panel
 * or a rule left naming a metric the code renamed or dropped fails here. The board also shows every
 * `catalog_*` family but the ones named below, and its expressions pass Prometheus's own parser.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { startFixture, type Fixture } from '../support/fixture';
import { exportedFamilies, metricNames, missingMetrics, withGrafanaDurations } from '../support/promql';
import { promtool } from '../support/promtool';

const ROOT = path.resolve(__dirname, '../..');

/** Series Prometheus writes itself for each scrape target, not the service. */
const PROMETHEUS_OWN = new Set(['up']);
/** Families the board leaves out, and why. */
const NOT_ON_THE_BOARD: Record<string, string> = {
  catalog_static_compressions_total: 'a start-up diagnostic: each static file is compressed once per process',
};

interface Panel {
  title?: string;
  targets?: { expr?: string; exemplar?: boolean }[];
  panels?: Panel[];
}
interface Dashboard {
  panels: Panel[];
  templating: { list: { name: string; query?: string | { query?: string } }[] };
}

/** The board as the repository holds it. */
const board = (): Dashboard => JSON.parse(readFileSync(path.join(ROOT, 'ops/grafana/catalog.json'), 'utf8')) as Dashboard;

/** Every panel of the board, those inside rows too. */
const panelsOf = (list: Panel[]): Panel[] => list.flatMap((p) => [p, ...panelsOf(p.panels ?? [])]);

/** Every PromQL expression of the board, with where it is: its panels' targets and its variables' label_values selectors. */
function boardExpressions(): { where: string; expr: string }[] {
  const { panels, templating } = board();
  const fromPanels = panelsOf(panels).flatMap((p) =>
    (p.targets ?? []).flatMap((t) => (t.expr ? [{ where: `panel "${p.title}"`, expr: withGrafanaDurations(t.expr) }] : [])),
  );
  const fromVariables = templating.list.flatMap((v) => {
    const query = typeof v.query === 'string' ? v.query : (v.query?.query ?? '');
    const selector = /^label_values\((.+),\s*\w+\)$/.exec(query.trim())?.[1];
    return selector ? [{ where: `variable $${v.name}`, expr: selector }] : [];
  });
  return [...fromPanels, ...fromVariables];
}

function ruleExpressions(): { where: string; expr: string }[] {
  const file = parse(readFileSync(path.join(ROOT, 'ops/prometheus/alerts.yml'), 'utf8')) as { groups: { rules: { alert: string; expr: string }[] }[] };
  return file.groups.flatMap((g) => g.rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr })));
}

/** For each expression, the metrics it names that the scrape does not export (and its parse error, if any). */
function unknownMetrics(exprs: { where: string; expr: string }[], exported: ReadonlyMap<string, string>): string[] {
  return exprs.flatMap(({ where, expr }) => {
    const { names, error } = metricNames(expr);
    const missing = missingMetrics(names, exported).filter((n) => !PROMETHEUS_OWN.has(n));
    return [...(error ? [`${where}: ${error}`] : []), ...missing.map((n) => `${where}: ${n}`)];
  });
}

let fx: Fixture;
let exported: Map<string, string>;

beforeAll(async () => {
  fx = await startFixture({ homes: 10 });
  exported = exportedFamilies(await (await fetch(`${fx.adminUrl}/metrics`)).text());
});

afterAll(async () => {
  await fx?.close();
});

describe('ops/grafana/catalog.json and ops/prometheus/alerts.yml against GET /metrics', () => {
  it('reads a scrape of the running service', () => {
    expect(exported.get('catalog_http_request_duration_seconds')).toBe('histogram');
    expect(exported.get('nodejs_eventloop_lag_p99_seconds')).toBe('gauge');
  });

  it('names, in every panel and variable of the board, only metrics the service exports', () => {
    const exprs = boardExpressions();
    expect(exprs.length).toBeGreaterThanOrEqual(20);
    expect(unknownMetrics(exprs, exported)).toEqual([]);
  });

  it('names, in every alert rule, only metrics the service exports', () => {
    const exprs = ruleExpressions();
    expect(exprs.length).toBeGreaterThanOrEqual(12);
    expect(unknownMetrics(exprs, exported)).toEqual([]);
  });

  it('finds a metric the service does not export, in a panel as in a rule', () => {
    const wrong = [
      { where: 'panel "renamed"', expr: 'sum(rate(catalog_http_requests_total{instance=~"$instance"}[5m]))' },
      { where: 'alert Dropped', expr: 'histogram_quantile(0.99, sum by (le) (rate(catalog_search_duration_seconds_bucket[5m]))) > 1' },
      { where: 'panel "a counter read as a histogram"', expr: 'rate(catalog_tool_calls_total_count[5m])' },
    ];
    expect(unknownMetrics(wrong, exported)).toEqual([
      'panel "renamed": catalog_http_requests_total',
      'alert Dropped: catalog_search_duration_seconds_bucket',
      'panel "a counter read as a histogram": catalog_tool_calls_total_count',
    ]);
  });

  it('shows every catalog_* family the service exports, but those left out on purpose', () => {
    const onBoard = new Set(boardExpressions().flatMap(({ expr }) => metricNames(expr).names));
    const catalog = [...exported.keys()].filter((n) => n.startsWith('catalog_') && !(n in NOT_ON_THE_BOARD));
    const shows = (family: string): boolean => [...onBoard].some((b) => b === family || ['_bucket', '_sum', '_count'].some((s) => b === `${family}${s}`));
    expect(catalog.length).toBeGreaterThanOrEqual(10);
    expect(catalog.filter((n) => !shows(n))).toEqual([]);
  });

  it("asks for exemplars on every target over the request histogram's buckets: a latency point opens its trace", () => {
    const latency = panelsOf(board().panels).flatMap((p) =>
      (p.targets ?? []).filter((t) => t.expr?.includes('catalog_http_request_duration_seconds_bucket')).map((t) => ({ panel: p.title, exemplar: t.exemplar })),
    );
    expect(latency.length).toBeGreaterThanOrEqual(2);
    expect(latency.filter((t) => t.exemplar !== true)).toEqual([]);
  });

  it("has every expression of the board accepted by Prometheus's own parser (promtool check rules)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-board-'));
    try {
      // Each expression as a recording rule: promtool parses it as Prometheus would evaluate it.
      const rules = boardExpressions().map(({ expr }, i) => ({ record: `catalog_board:expr_${i}`, expr }));
      writeFileSync(path.join(dir, 'board.yml'), stringify({ groups: [{ name: 'board', rules }] }));
      const { status, output } = promtool(['check', 'rules', 'board.yml'], dir);
      expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
      expect(status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
