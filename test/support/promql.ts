/**
 * What PromQL expressions read, for the tests that hold the board (ops/grafana/catalog.json) and the alert
 * rules (ops/prometheus/alerts.yml) to the metrics the service exports. Parsed with the Prometheus
 * project's own grammar (@prometheus-io/lezer-promql, the one its web UI uses), so function names,
 * label names, `by`/`without`/`on`/`ignoring`, durations and strings are never taken for metrics.
 */
import { createRequire } from 'node:module';
import type { parser as PromqlParser } from '@prometheus-io/lezer-promql' with { 'resolution-mode': 'import' };

// The package ships CommonJS (its `require` export) under ESM-only types: loaded by require, typed as it declares.
const { parser } = createRequire(__filename)('@prometheus-io/lezer-promql') as { parser: typeof PromqlParser };

/** Grafana's interval variables, as a duration PromQL parses; every other `$name` sits inside a label's string. */
const GRAFANA_DURATIONS = /\$(__rate_interval|__interval|__range)\b|\$\{(__rate_interval|__interval|__range)\}/g;

export function withGrafanaDurations(expr: string): string {
  return expr.replace(GRAFANA_DURATIONS, '5m');
}

/** The metric names an expression selects, or the parser's complaint when it is not PromQL. */
export function metricNames(expr: string): { names: string[]; error?: string } {
  const tree = parser.parse(expr);
  const names = new Set<string>();
  let error: string | undefined;
  tree.iterate({
    enter(node) {
      if (node.type.isError) error ??= `not PromQL at ${node.from}: ${JSON.stringify(expr.slice(Math.max(0, node.from - 20), node.to + 20))}`;
      if (node.name !== 'VectorSelector') return;
      const name = node.node.getChild('Identifier');
      if (name) names.add(expr.slice(name.from, name.to));
      // A selector by {__name__="…"} names its metric in a label.
      for (const m of expr.slice(node.from, node.to).matchAll(/__name__\s*=\s*"([^"]+)"/g)) names.add(m[1]!);
    },
  });
  return { names: [...names].sort(), ...(error ? { error } : {}) };
}

/** The series a family of each type writes beside its own name. */
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count'] };

/**
 * The names of `wanted` that `exported` (metric families by type, from a scrape's `# TYPE` lines) does
 * not hold; a histogram's `_bucket`, `_sum` and `_count` series (a summary's `_sum` and `_count`) count
 * as their family.
 */
export function missingMetrics(wanted: Iterable<string>, exported: ReadonlyMap<string, string>): string[] {
  const known = (name: string): boolean =>
    exported.has(name) ||
    Object.entries(SUFFIXES).some(([type, suffixes]) => suffixes.some((s) => name.endsWith(s) && exported.get(name.slice(0, -s.length)) === type));
  return [...new Set(wanted)].filter((n) => !known(n)).sort();
}

/** The metric families a Prometheus text exposition declares (`# TYPE <name> <type>`), with their types. */
export function exportedFamilies(exposition: string): Map<string, string> {
  return new Map([...exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
}
