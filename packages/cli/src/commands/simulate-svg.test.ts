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

describe('lineChart', () => {
  it('draws each line through its points, scaled to the largest x and y of any line', () => {
    const svg = lineChart('RSS <MB>', [
      {
        label: 'rss',
        colour: '#1f77b4',
        points: [
          [0, 100],
          [60, 200],
        ],
      },
      {
        label: 'bar & limit',
        colour: '#d62728',
        points: [
          [0, 260],
          [120, 260],
        ],
        dashed: true,
      },
    ]);
    expect(svg).toContain('<h2>RSS &lt;MB&gt;</h2>');
    const [rss, bar] = pathsOf(svg);
    // 760 x 220 frame, padding 56 left, 12 right, 28 top and bottom: x 0..120 -> 56..748,
    // y 0..260 -> 192..28.
    expect(rss?.[1]).toBe('M56.0,128.9L402.0,65.8');
    expect(rss?.[2]).not.toContain('stroke-dasharray');
    expect(bar?.[1]).toBe('M56.0,28.0L748.0,28.0');
    expect(bar?.[2]).toContain('stroke-dasharray="5 3"');
    expect(svg).toContain('>bar &amp; limit</text>');
    // Hours along x unless told otherwise.
    expect(svg).toContain('>120.0h</text>');
  });

  it('labels x with the caller’s format, and draws an empty chart without failing', () => {
    const svg = lineChart('pods', [running], {
      formatY: (v) => String(Math.round(v)),
      xLabel: (v) => `${Math.round(v)} s`,
    });
    expect(svg).toContain('>90 s</text>');
    expect(svg).toContain('>45 s</text>');
    expect(svg).toContain('>1000</text>');
    // A longer x range, as when charts of one run share their x axis: the line ends mid-chart.
    const shared = lineChart('pods', [running], { maxX: 180 });
    expect(pathsOf(shared)[0]?.[1]).toBe('M56.0,192.0L402.0,28.0');
    expect(pathsOf(lineChart('nothing', []))).toEqual([]);
  });
});
