/**
 * The reader of PromQL that holds the board and the alert rules to the exported metrics
 * (test/support/promql.ts): it names the metrics an expression selects and nothing else.
 */
import { exportedFamilies, metricNames, missingMetrics, withGrafanaDurations } from '../../support/promql';

describe('metricNames', () => {
  it('names the selected metrics, not functions, label names, grouping and matching keywords, or durations', () => {
    const expr = `histogram_quantile(0.99, sum by (le, route) (rate(catalog_http_request_duration_seconds_bucket{route!="unmatched"}[5m])))
      > 1 and on (route) sum without (instance) (increase(catalog_tool_calls_total{outcome=~"ok|tool_error"}[1h] offset 5m))
      / ignoring (kind) group_left max_over_time(up[1h:5m]) unless absent(nodejs_eventloop_lag_p99_seconds) or vector(0)`;
    expect(metricNames(expr)).toEqual({
      names: ['catalog_http_request_duration_seconds_bucket', 'catalog_tool_calls_total', 'nodejs_eventloop_lag_p99_seconds', 'up'],
    });
  });

  it('names a metric selected by __name__, and one whose name is also a function or keyword word', () => {
    expect(metricNames('sum({__name__="catalog_requests_bounded_total", outcome="shed"}) + rate(by_route_total[5m]) + count').names).toEqual([
      'by_route_total',
      'catalog_requests_bounded_total',
      'count',
    ]);
  });

  it('says where an expression is not PromQL', () => {
    expect(metricNames('sum(rate(catalog_tool_calls_total[$__rate_interval]))').error).toMatch(/not PromQL/);
    expect(metricNames('sum(rate(catalog_tool_calls_total[5m])').error).toMatch(/not PromQL/);
  });

  it("reads Grafana's interval variables as durations, and leaves other variables inside strings alone", () => {
    const expr = withGrafanaDurations('sum(rate(catalog_tool_calls_total{instance=~"$instance"}[$__rate_interval])) + rate(up[${__interval}])');
    expect(expr).toBe('sum(rate(catalog_tool_calls_total{instance=~"$instance"}[5m])) + rate(up[5m])');
    expect(metricNames(expr)).toEqual({ names: ['catalog_tool_calls_total', 'up'] });
  });
});

describe('missingMetrics', () => {
  const exported = exportedFamilies(
    ['# HELP a_seconds x', '# TYPE a_seconds histogram', 'a_seconds_bucket{le="1"} 0', '# TYPE b_total counter', 'b_total 1', '# TYPE c gauge'].join('\n'),
  );

  it("counts a histogram's _bucket, _sum and _count as its family, and a family with no sample as exported", () => {
    expect([...exported].sort()).toEqual([
      ['a_seconds', 'histogram'],
      ['b_total', 'counter'],
      ['c', 'gauge'],
    ]);
    expect(missingMetrics(['a_seconds_bucket', 'a_seconds_sum', 'a_seconds_count', 'b_total', 'c'], exported)).toEqual([]);
  });

  it('names what is not exported, a suffix on a family that is not a histogram or is not there included', () => {
    expect(missingMetrics(['b_total_count', 'b', 'd_bucket', 'c'], exported)).toEqual(['b', 'b_total_count', 'd_bucket']);
  });
});
