import { describe, expect, it } from 'vitest';
import { type ChartLine, lineChart } from './simulate-svg.js';

const running: ChartLine = {
  label: 'Running',
  colour: '#000',
  points: [
    [0, 0],
    [90, 1000],
  ],
};

const pathsOf = (svg: string) => [...svg.matchAll(/<path d="([^"]*)"([^>]*)\/>/g)];
/** The y tick labels (right-aligned left of the plot) and the x tick labels (centred below it). */
const yTicks = (svg: string) =>
  [...svg.matchAll(/<text x="66" y="[\d.]+" text-anchor="end">([^<]*)<\/text>/g)].map((m) => m[1]);
const xTicks = (svg: string) =>
  [...svg.matchAll(/<text x="[\d.]+" y="211" text-anchor="middle">([^<]*)<\/text>/g)].map((m) => m[1]);

describe('lineChart', () => {
  it('draws each line through its points on round axes that reach the largest x and y', () => {
    const svg = lineChart('RSS <MB>', [
      {
        label: 'rss',
        colour: '#1f77b4',
        points: [
          [0, 100],
          [6, 200],
        ],
      },
      {
        label: 'bar & limit',
        colour: '#d62728',
        points: [
          [0, 260],
          [12, 260],
        ],
        dashed: true,
      },
    ]);
    expect(svg).toContain('<h2>RSS &lt;MB&gt;</h2>');
    // 260 rounds up to 300 in steps of 100; 12 hours in steps of 2.
    expect(yTicks(svg)).toEqual(['0', '100', '200', '300']);
    expect(xTicks(svg)).toEqual(['0', '2', '4', '6', '8', '10', '12']);
    const [rss, bar] = pathsOf(svg);
    // 760 x 240 frame, padding 72 left, 16 right, 30 top, 44 bottom: x 0..12 -> 72..744,
    // y 0..300 -> 196..30.
    expect(rss?.[1]).toBe('M72.0,140.7L408.0,85.3');
    expect(rss?.[2]).not.toContain('stroke-dasharray');
    expect(bar?.[1]).toBe('M72.0,52.1L744.0,52.1');
    expect(bar?.[2]).toContain('stroke-dasharray="5 3"');
    expect(svg).toContain('>hours since the start</text>');
  });

  it('draws each legend swatch as its line: solid or dashed, in its colour', () => {
    const svg = lineChart('x', [
      { label: 'spot', colour: '#e67e22', points: [[0, 1]] },
      { label: 'CA spot', colour: '#e67e22', points: [[0, 2]], dashed: true },
    ]);
    const legend = [
      ...svg.matchAll(
        /<line x1="[\d.]+" x2="[\d.]+" y1="13" y2="13" stroke="([^"]+)"[^>]*?( stroke-dasharray="5 3")?\/><text class="legend"[^>]*>([^<]*)<\/text>/g,
      ),
    ].map((m) => [m[3], m[1], m[2] !== undefined]);
    expect(legend).toEqual([
      ['spot', '#e67e22', false],
      ['CA spot', '#e67e22', true],
    ]);
  });

  it('titles the axes, formats ticks with their step, and reaches a mark above the data', () => {
    const svg = lineChart(
      'cost',
      [
        {
          label: 'cost',
          colour: '#000',
          points: [
            [0, 0.3],
            [24, 1.17],
          ],
        },
      ],
      {
        yTitle: '$ per hour',
        formatY: (v, step) => `$${v.toFixed(step < 1 ? 1 : 0)}`,
        marks: [{ value: 2.2, label: 'peak 2.2', colour: '#333' }],
      },
    );
    expect(yTicks(svg)).toEqual(['$0.0', '$0.5', '$1.0', '$1.5', '$2.0', '$2.5']);
    expect(xTicks(svg)).toEqual(['0', '4', '8', '12', '16', '20', '24']);
    expect(svg).toMatch(/transform="rotate\(-90 [\d.]+ [\d.]+\)">\$ per hour<\/text>/);
    expect(svg).toContain('>peak 2.2</text>');
  });

  it('can tick x in decimal steps, keeps to the given maxima, and draws an empty chart', () => {
    const svg = lineChart('pods', [running], {
      xTicks: 'decimal',
      xLabel: (v) => `${v} s`,
      minStepY: 1,
    });
    expect(xTicks(svg)).toEqual(['0 s', '20 s', '40 s', '60 s', '80 s', '100 s']);
    expect(yTicks(svg)).toEqual(['0', '200', '400', '600', '800', '1000']);
    const share = lineChart('util', [{ label: 'cpu', colour: '#000', points: [[0, 0.5]] }], { maxY: 1 });
    expect(yTicks(share)).toEqual(['0', '0.2', '0.4', '0.6', '0.8', '1']);
    // A longer x range, as when charts of one run share their x axis: the line ends mid-chart
    // (180 rounds up to 200 in steps of 50).
    const shared = lineChart('pods', [running], { maxX: 180, xTicks: 'decimal' });
    expect(pathsOf(shared)[0]?.[1]).toBe('M72.0,196.0L374.4,30.0');
    expect(pathsOf(lineChart('nothing', []))).toEqual([]);
    expect(yTicks(lineChart('nothing', [], { minStepY: 1 }))).toEqual(['0', '1']);
  });
});
