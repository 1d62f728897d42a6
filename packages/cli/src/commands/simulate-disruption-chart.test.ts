import type { FleetSample } from '@nodewright/core/simulation';
import { describe, expect, it } from 'vitest';
import {
  bucketHours,
  disruptionBuckets,
  disruptionChart,
  reasonColours,
} from './simulate-disruption-chart.js';

const sample = (hour: number, disruptions: Record<string, number> = {}): FleetSample => ({
  hour,
  nodes: 1,
  spotNodes: 0,
  onDemandNodes: 1,
  podsPending: 0,
  podsRunning: 1,
  costPerHour: 0.1,
  lowerBoundPerHour: 0.05,
  cpuRequested: 1,
  cpuAllocatable: 2,
  memoryRequested: 1,
  memoryAllocatable: 2,
  disruptions,
});

/** One sample a minute over `hours`, with disruptions at the given minutes. */
const series = (hours: number, at: Record<number, Record<string, number>>) =>
  Array.from({ length: hours * 60 + 1 }, (_, m) => sample(m / 60, at[m]));

const bars = (svg: string) =>
  [...svg.matchAll(/<rect class="disruption" data-run="(\d)" data-reason="([^"]+)" data-count="(\d+)"/g)].map(
    (m) => ({ run: Number(m[1]), reason: m[2], count: Number(m[3]) }),
  );

describe('bucketHours', () => {
  it('picks the narrowest nice width giving at most 48 buckets', () => {
    expect(bucketHours(24)).toBe(0.5);
    expect(bucketHours(6)).toBe(1 / 6);
    expect(bucketHours(2)).toBe(1 / 12);
    expect(bucketHours(72)).toBe(2);
  });
});

describe('disruptionBuckets', () => {
  it('sums each bucket; a sample at a bucket end belongs to the bucket it closes', () => {
    const s = series(2, {
      0: { empty: 1 },
      29: { underutilized: 2 },
      30: { underutilized: 1, drifted: 1 },
      31: { underutilized: 4 },
      120: { interruption: 1 },
    });
    expect(disruptionBuckets(s, 0.5, 2)).toEqual([
      { from: 0, to: 0.5, counts: { drifted: 1, empty: 1, underutilized: 3 } },
      { from: 0.5, to: 1, counts: { underutilized: 4 } },
      { from: 1, to: 1.5, counts: {} },
      { from: 1.5, to: 2, counts: { interruption: 1 } },
    ]);
  });
});

describe('reasonColours', () => {
  it("puts Karpenter's reasons first in a fixed order, others after, each its own colour", () => {
    const c = reasonColours(['zzz', 'interruption', 'empty', 'aaa', 'underutilized']);
    expect(c.map(([r]) => r)).toEqual(['empty', 'underutilized', 'interruption', 'aaa', 'zzz']);
    expect(new Set(c.map(([, colour]) => colour)).size).toBe(5);
  });
});

/** The y tick labels: right-aligned texts left of the plot. */
const yTicks = (svg: string) =>
  [...svg.matchAll(/<text x="66" y="[\d.]+" text-anchor="end">([^<]*)<\/text>/g)].map((m) => m[1]);

describe('disruptionChart', () => {
  it('draws a stacked bar segment per reason and bucket, titled with run, time and count', () => {
    const svg = disruptionChart([
      { label: 'nodewright', series: series(2, { 10: { empty: 2 }, 70: { underutilized: 3, drifted: 1 } }) },
    ]);
    expect(svg).toContain('<h2>Disruptions by reason</h2>');
    expect(bars(svg)).toEqual([
      { run: 0, reason: 'empty', count: 2 },
      { run: 0, reason: 'underutilized', count: 3 },
      { run: 0, reason: 'drifted', count: 1 },
    ]);
    expect(svg).toContain('<title>nodewright 1:05–1:10: underutilized 3</title>');
    expect(svg).toContain('Each bar counts the nodes disrupted in 5 min, stacked by reason.');
    // Whole-number ticks up to the tallest bar (4), the y axis titled with its unit.
    expect(yTicks(svg)).toEqual(['0', '1', '2', '3', '4']);
    expect(svg).toContain('>nodes disrupted per 5 min</text>');
    expect(svg).toMatch(
      /<rect x="[\d.]+" y="8" width="12" height="10" fill="#95a5a6"\/><text class="legend"[^>]*>empty<\/text>/,
    );
    expect(svg).not.toMatch(/<script|https?:\/\//);
  });

  it("sets the baseline's bars beside nodewright's, lighter", () => {
    const svg = disruptionChart([
      { label: 'nodewright', series: series(1, { 20: { underutilized: 1 } }) },
      { label: 'cluster-autoscaler', series: series(1, { 20: { empty: 2 }, 40: { underutilized: 1 } }) },
    ]);
    expect(bars(svg)).toEqual([
      { run: 0, reason: 'underutilized', count: 1 },
      { run: 1, reason: 'empty', count: 2 },
      { run: 1, reason: 'underutilized', count: 1 },
    ]);
    const x = (run: number) => Number(svg.match(new RegExp(`data-run="${run}"[^>]* x="([\\d.]+)"`))![1]);
    expect(x(1)).toBeGreaterThan(x(0));
    expect(svg).toMatch(/data-run="1"[^>]*fill-opacity="0.45"/);
    expect(svg).toContain('left nodewright, right (lighter) cluster-autoscaler.');
  });

  it('says so when nothing was disrupted', () => {
    const svg = disruptionChart([{ label: 'nodewright', series: series(1, {}) }]);
    expect(bars(svg)).toEqual([]);
    expect(svg).toContain('no disruptions');
  });
});
