import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dashboardPanels, loadDashboards } from './dashboards.js';
import { documentedMetricNames, documentedMetricOf } from './documented-metrics.js';
import { promqlMetricNames } from './promql-metrics.js';

const MetricsDoc = new URL('../../../../docs/metrics.md', import.meta.url).pathname;

describe('promqlMetricNames', () => {
  it('finds selectors inside functions, aggregations and binary expressions', () => {
    expect(
      promqlMetricNames(
        'histogram_quantile(0.99, sum by (controller, le) (rate(controller_runtime_reconcile_time_seconds_bucket{controller="x"}[5m])))',
      ),
    ).toEqual(['controller_runtime_reconcile_time_seconds_bucket']);
    expect(
      promqlMetricNames(
        'sum by (nodepool) (a_total{resource_type="cpu"}) - on (nodepool) group_left b / 1e6',
      ),
    ).toEqual(['a_total', 'b']);
  });

  it('skips label values, keywords and offsets', () => {
    expect(promqlMetricNames('x{phase="Pending"} offset 5m and bool y or vector(0)')).toEqual(['x', 'y']);
  });
});

describe('documentedMetricNames', () => {
  it('reads table names and prose names, not label names', () => {
    const names = documentedMetricNames(
      '| `karpenter_nodes_allocatable` | gauge | `nodepool`, `resource_type` |\nas `nodejs_eventloop_lag_p99_seconds`',
    );
    expect([...names].sort()).toEqual(['karpenter_nodes_allocatable', 'nodejs_eventloop_lag_p99_seconds']);
  });

  it('maps histogram and summary series to their metric', () => {
    const names = new Set(['h_seconds']);
    expect(documentedMetricOf('h_seconds_bucket', names)).toBe('h_seconds');
    expect(documentedMetricOf('h_seconds_count', names)).toBe('h_seconds');
    expect(documentedMetricOf('other_bucket', names)).toBeUndefined();
  });
});

describe('dashboardPanels', () => {
  it('flattens rows and refuses a target without a query', () => {
    const panels = dashboardPanels('d', {
      panels: [{ type: 'row', panels: [{ title: 'p', targets: [{ refId: 'A', expr: 'up' }] }] }],
    });
    expect(panels.map((p) => [p.title, p.queries[0]?.expr])).toEqual([['p', 'up']]);
    expect(() => dashboardPanels('d', { panels: [{ title: 'p', targets: [{ refId: 'A' }] }] })).toThrow(
      /has no expr/,
    );
  });
});

describe('the Grafana dashboards in deploy/grafana', () => {
  const panels = loadDashboards();
  const documented = documentedMetricNames(readFileSync(MetricsDoc, 'utf8'));

  it('are the capacity, performance and cost dashboards, each with panels', () => {
    expect([...new Set(panels.map((p) => p.dashboard))]).toEqual(['capacity', 'cost', 'performance']);
  });

  it('use only metrics the controller exports (docs/metrics.md)', () => {
    const used = panels.flatMap((p) => p.queries.flatMap((q) => promqlMetricNames(q.expr)));
    expect(used.length).toBeGreaterThan(20);
    const unknown = used.filter((name) => documentedMetricOf(name, documented) === undefined);
    expect(unknown).toEqual([]);
  });
});
