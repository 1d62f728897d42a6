import { expect, it } from 'vitest';
import { legendOf, renderPanelsHtml } from './panel-report.js';
import { prometheusConfig } from './prometheus-process.js';

it('fills a legend template from the series labels, or lists the labels without one', () => {
  expect(legendOf('usage {{nodepool}}', { nodepool: 'default', resource_type: 'cpu' })).toBe('usage default');
  expect(legendOf('', { __name__: 'x', zone: 'a' })).toBe('zone=a');
  expect(legendOf('', { __name__: 'x' })).toBe('x');
});

it('renders one chart per panel under its dashboard, skipping NaN points, with the queries shown', () => {
  const html = renderPanelsHtml('t', 'intro <b>', 100, [
    {
      panel: {
        dashboard: 'capacity',
        title: 'Nodes',
        unit: 'short',
        queries: [{ dashboard: 'capacity', panel: 'Nodes', refId: 'A', expr: 'a{x="1"}', legend: '{{x}}' }],
      },
      series: [
        [
          {
            metric: { x: 'one' },
            values: [
              [100, 1],
              [102, Number.NaN],
              [104, 3],
            ],
          },
        ],
      ],
    },
  ]);
  expect(html).toContain('Dashboard: capacity');
  expect(html).toContain('intro &lt;b&gt;');
  expect(html).toContain('a{x=&quot;1&quot;}');
  expect(html).toContain('>one<');
  expect(html.match(/<svg/g)).toHaveLength(1);
  // Two finite points: one move and one line.
  expect(html).toMatch(/<path d="M[0-9.]+,[0-9.]+L[0-9.]+,[0-9.]+"/);
  expect(html).not.toContain('<script');
});

it('writes a scrape config for the targets at the interval', () => {
  const config = prometheusConfig(['127.0.0.1:8080'], 2);
  expect(config).toContain('scrape_interval: 2s');
  expect(config).toContain('targets: ["127.0.0.1:8080"]');
});
