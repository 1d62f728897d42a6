import type { FleetSample, SimulationResult, SimulationSummary } from '@nodewright/core/simulation';
import { describe, expect, it } from 'vitest';
import { renderSimulationHtml, renderSimulationResultText, renderSimulationText } from './simulate-report.js';
import { averageNodeCpu, interpretComparison, summarySections } from './simulate-summary.js';

function summary(o: {
  launched: number;
  peak: number;
  cost: number;
  cpu: number;
  created: number;
  evicted: number;
  disruptions: Record<string, number>;
  decisions: Record<string, number>;
}): SimulationSummary {
  return {
    scenario: 'diurnal-web',
    seed: 7,
    durationHours: 2,
    nodes: { launched: o.launched, terminated: o.launched - 1, peak: o.peak, atEnd: 1 },
    cost: { total: o.cost, averagePerHour: o.cost / 2, lowerBound: 10, lowerBoundRatio: o.cost / 10 },
    utilisation: { cpu: o.cpu, memory: 0.5 },
    pods: {
      created: o.created,
      scheduled: o.created,
      pendingAtEnd: 0,
      evicted: o.evicted,
      pendingSeconds: { p50: 0, p90: 58.5, p99: 65.5, max: 65.5 },
    },
    disruptions: o.disruptions,
    decisions: o.decisions,
    events: {},
  };
}

/** Samples every half hour of `nodes` spot nodes, each of `cpu` cores. */
function series(nodes: number, cpu: number, spot: boolean): FleetSample[] {
  return [0, 0.5, 1, 1.5, 2].map((hour) => ({
    hour,
    nodes,
    spotNodes: spot ? nodes : 0,
    onDemandNodes: spot ? 0 : nodes,
    podsPending: 0,
    podsRunning: 10,
    costPerHour: 0.57,
    lowerBoundPerHour: 0.41,
    cpuRequested: nodes * cpu * 0.8,
    cpuAllocatable: nodes * cpu,
    memoryRequested: 1,
    memoryAllocatable: 2,
    disruptions: hour === 1 ? ({ underutilized: 2 } as Record<string, number>) : {},
  }));
}

const own = summary({
  launched: 56,
  peak: 22,
  cost: 13.7821,
  cpu: 0.8171,
  created: 195,
  evicted: 126,
  disruptions: { empty: 5, interruption: 4, underutilized: 46 },
  decisions: { 'delete/empty/empty': 5, 'delete/underutilized/single': 28, 'replace/underutilized/multi': 6 },
});
const ca = summary({
  launched: 6,
  peak: 6,
  cost: 13.76,
  cpu: 0.7712,
  created: 69,
  evicted: 0,
  disruptions: { empty: 4 },
  decisions: { 'delete/empty': 4 },
});

const result: SimulationResult = {
  summary: own,
  series: series(4, 2, true),
  baseline: {
    autoscaler: 'cluster-autoscaler',
    nodeGroups: ['default-on-demand: c-8x', 'default-spot: c-8x'],
    summary: ca,
    series: series(2, 8, false),
  },
  comparison: {
    costDeltaPercent: 0.16,
    utilisationDelta: { cpu: 0.0459, memory: -0.308 },
    pendingSecondsDelta: { p50: 0, p90: -9 },
  },
};

describe('summarySections', () => {
  it('has the churn rows with both runs and their difference, and a row per disruption reason', () => {
    const sections = summarySections(result);
    expect(sections.map((s) => s.title)).toEqual([
      'Nodes',
      'Cost',
      'Utilisation (requests / allocatable, time-weighted)',
      'Pods',
      'Disruptions by reason',
    ]);
    const rows = new Map(sections.flatMap((s) => s.rows.map((r) => [`${s.title}/${r.label}`, r])));
    expect(rows.get('Nodes/launched')).toEqual({ label: 'launched', cells: ['56', '6'], difference: '+50' });
    expect(rows.get('Nodes/terminated')?.cells).toEqual(['55', '5']);
    expect(rows.get('Nodes/average size')?.cells).toEqual(['2.0 cpu', '8.0 cpu']);
    expect(rows.get('Cost/total')).toEqual({
      label: 'total',
      cells: ['$13.78', '$13.76'],
      difference: '+0.2 %',
    });
    expect(rows.get('Cost/average')?.cells).toEqual(['$6.8911/h', '$6.8800/h']);
    expect(rows.get('Pods/evicted and recreated')).toMatchObject({ cells: ['126', '0'], difference: '+126' });
    expect(rows.get('Pods/pending p90')?.difference).toBe('-9.0 s');
    expect(rows.get('Disruptions by reason/underutilized')?.cells).toEqual(['46', '0']);
    expect(rows.get('Disruptions by reason/empty')).toMatchObject({ cells: ['5', '4'], difference: '+1' });
  });

  it('has one column and no difference without a baseline', () => {
    const one = summarySections({ summary: own, series: result.series });
    expect(one.flatMap((s) => s.rows).every((r) => r.cells.length === 1 && r.difference === undefined)).toBe(
      true,
    );
  });

  it('averages node size over the samples, zero for a run without nodes', () => {
    expect(averageNodeCpu(series(3, 4, true))).toBe(4);
    expect(averageNodeCpu([])).toBe(0);
  });
});

describe('interpretComparison', () => {
  it('says why nodewright launched more nodes, what the evictions were, and the cost verdict', () => {
    const [churn, evictions, interruptions, cost] = interpretComparison(result);
    expect(churn).toBe(
      "nodewright launched 56 nodes to cluster-autoscaler's 6: it launches nodes sized to each batch of pending pods (its nodes averaged 2.0 cpu against 8.0) and consolidates them away or onto cheaper ones as the load changes (39 disruption decisions), while cluster-autoscaler adds nodes of its node groups' one instance type and removes only nodes that stay underused (4 scale-downs).",
    );
    expect(evictions).toBe(
      'Draining those nodes evicted 126 pods under nodewright and 0 under cluster-autoscaler; their Deployments recreated them, which is why more pods were created (195 against 69).',
    );
    // 4 spot nodes for 2 h against none.
    expect(interruptions).toBe(
      "Spot interruptions: 4 under nodewright, 0 under cluster-autoscaler, over 8 and 0 spot node-hours (the simulated cloud interrupts each running spot instance at random, at the scenario's rate).",
    );
    expect(cost).toBe(
      'Cost: nodewright $13.78, cluster-autoscaler $13.76: about the same, with higher cpu utilisation (81.7 % against 77.1 %).',
    );
    expect(interpretComparison({ summary: own, series: [] })).toEqual([]);
  });
});

describe('renderSimulationResultText', () => {
  it('prints one run as aligned lines with dollars', () => {
    const text = renderSimulationText(own);
    expect(text).toContain('cost            $13.78 total, $6.8911/h on average\n');
    expect(text).toContain(
      'lower bound     $10.00 (cheapest capacity for the pods requested each minute); cost / bound 1.378\n',
    );
    expect(text).toContain(
      'pods            195 created (126 of them recreated after an eviction), 195 scheduled',
    );
  });

  it('prints the comparison as a table with headings, then the node groups and what it means', () => {
    const lines = renderSimulationResultText(result).split('\n');
    expect(lines[0]).toBe('diurnal-web (seed 7, 2 h simulated), nodewright against cluster-autoscaler');
    expect(lines[2]).toMatch(/^ +nodewright +cluster-autoscaler +difference$/);
    expect(lines).toContain('Nodes');
    expect(lines.find((l) => l.startsWith('  launched'))).toMatch(/^ {2}launched +56 +6 +\+50$/);
    expect(lines.find((l) => l.startsWith('  evicted and recreated'))).toMatch(/ +126 +0 +\+126$/);
    expect(lines.find((l) => l.startsWith('  lower bound'))).toMatch(/^ {2}lower bound +\$10\.00 +\$10\.00$/);
    expect(lines.find((l) => l.startsWith('  cost / lower bound'))).toMatch(/ +1\.378 +1\.376$/);
    expect(lines).toContain('cluster-autoscaler node groups: default-on-demand (c-8x), default-spot (c-8x)');
    const meaning = lines.slice(lines.findIndex((l) => l.startsWith('nodewright launched 56 nodes')));
    expect(meaning.length).toBeGreaterThan(4);
    expect(meaning.every((l) => l.length <= 100)).toBe(true);
  });
});

describe('renderSimulationHtml', () => {
  const page = renderSimulationHtml(result);

  it('renders the summary as a table with headings, sections and the difference column', () => {
    expect(page).toContain(
      '<thead><tr><th></th><th>nodewright</th><th>cluster-autoscaler</th><th>difference</th></tr></thead>',
    );
    expect(page).toContain('<tr class="section"><th colspan="4">Nodes</th></tr>');
    expect(page).toContain('<tr><th>launched</th><td>56</td><td>6</td><td class="difference">+50</td></tr>');
    expect(page).toContain(
      '<tr><th>evicted and recreated</th><td>126</td><td>0</td><td class="difference">+126</td></tr>',
    );
    expect(page).toContain('<p>nodewright launched 56 nodes');
  });

  it('draws in the nodes chart only the lines that show: no "all" under a single capacity type', () => {
    const nodes = page.slice(page.indexOf('<h2>Nodes by capacity type'), page.indexOf('<h2>Cost per hour'));
    const legend = [...nodes.matchAll(/<text class="legend"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    // nodewright ran only spot, the baseline only on-demand.
    expect(legend).toEqual(['spot', 'CA on-demand']);
    expect([...nodes.matchAll(/<path /g)]).toHaveLength(2);
    // The summary's peaks are marked, and the axis reaches them: 22 on ticks of 5 up to 25.
    expect(nodes).toContain('>nodewright peak 22</text>');
    expect(nodes).toContain('>CA peak 6</text>');
    expect(nodes).toContain('text-anchor="end">25</text>');
    expect(nodes).not.toMatch(/text-anchor="end">\d+\.\d+<\/text>/);
  });

  it('labels the cost axis in dollars, utilisation in whole percent, every axis titled', () => {
    const cost = page.slice(page.indexOf('<h2>Cost per hour'), page.indexOf('<h2>Pods'));
    expect(cost).toContain('>$ per hour</text>');
    // The lower bound is drawn under nodewright's cost and named in the note below the chart.
    expect(cost).toContain('>lower bound</text>');
    expect(page).toContain(
      'Over the run: nodewright $10.00, cost / bound 1.378; cluster-autoscaler cost / its bound 1.376.',
    );
    // 0.57 an hour: ticks of 20 cents up to 60.
    expect(cost).toContain('text-anchor="end">$0.60</text>');
    expect(cost).toContain('text-anchor="end">$0.20</text>');
    const util = page.slice(page.indexOf('<h2>Utilisation'), page.indexOf('<h2>Disruptions'));
    const ticks = [...util.matchAll(/text-anchor="end">([^<]*)<\/text>/g)].map((m) => m[1]);
    expect(ticks).toEqual(['0 %', '20 %', '40 %', '60 %', '80 %', '100 %']);
    expect(page.match(/>hours since the start<\/text>/g)).toHaveLength(5);
  });
});
