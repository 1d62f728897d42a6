import type { FleetSample, SimulationResult, SimulationSummary } from '@nodewright/core/simulation';
import { formatCost, formatPerHour, plural } from '../format/index.js';

/** One row of the summary: a label, one cell per run, and how nodewright differs, where that reads. */
export interface SummaryRow {
  readonly label: string;
  readonly cells: readonly string[];
  readonly difference?: string;
}

/** A titled group of rows (nodes, cost, utilisation, pods, disruptions). */
export interface SummarySection {
  readonly title: string;
  readonly rows: readonly SummaryRow[];
}

/** The runs of a result, nodewright's first: their column headings, summaries and series. */
export interface SummaryRun {
  readonly label: string;
  readonly summary: SimulationSummary;
  readonly series: readonly FleetSample[];
}

/** nodewright's run, then the baseline's when there is one. */
export function summaryRuns(result: SimulationResult): SummaryRun[] {
  const base = result.baseline;
  return [
    { label: 'nodewright', summary: result.summary, series: result.series },
    ...(base === undefined ? [] : [{ label: base.autoscaler, summary: base.summary, series: base.series }]),
  ];
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
/** A difference with its sign; `same` when it rounds to nothing. */
const signed = (x: number, digits: number, unit: string) => {
  const text = x.toFixed(digits);
  return Number(text) === 0 ? 'same' : `${x > 0 ? '+' : ''}${text}${unit}`;
};
const signedCount = (a: number, b: number) => signed(a - b, 0, '');

/** Mean cores a node could allocate over the run's samples: the size of its typical node. */
export function averageNodeCpu(series: readonly FleetSample[]): number {
  let cpu = 0;
  let nodes = 0;
  for (const s of series) {
    cpu += s.cpuAllocatable;
    nodes += s.nodes;
  }
  return nodes === 0 ? 0 : cpu / nodes;
}

/** Spot node-hours of a run: its spot nodes summed over the time between samples. */
export function spotNodeHours(series: readonly FleetSample[]): number {
  let hours = 0;
  for (let i = 1; i < series.length; i++)
    hours += series[i]!.spotNodes * (series[i]!.hour - series[i - 1]!.hour);
  return hours;
}

/**
 * The summary as sections of rows with a cell per run (pure); with a baseline, a difference
 * column: counts as nodewright minus baseline, cost in percent, utilisation in points.
 */
export function summarySections(result: SimulationResult): SummarySection[] {
  const runs = summaryRuns(result);
  const s = runs.map((r) => r.summary);
  const two = runs.length === 2;
  const c = result.comparison;
  const count = (label: string, value: (x: SimulationSummary) => number): SummaryRow => ({
    label,
    cells: s.map((x) => String(value(x))),
    ...(two ? { difference: signedCount(value(s[0]!), value(s[1]!)) } : {}),
  });
  const seconds = (label: string, value: (x: SimulationSummary) => number, delta?: number): SummaryRow => ({
    label,
    cells: s.map((x) => `${value(x)} s`),
    ...(two && delta !== undefined ? { difference: signed(delta, 1, ' s') } : {}),
  });
  const reasons = [...new Set(s.flatMap((x) => Object.keys(x.disruptions)))].sort();
  return [
    {
      title: 'Nodes',
      rows: [
        count('launched', (x) => x.nodes.launched),
        count('terminated', (x) => x.nodes.terminated),
        count('peak at once', (x) => x.nodes.peak),
        count('at the end', (x) => x.nodes.atEnd),
        { label: 'average size', cells: runs.map((r) => `${averageNodeCpu(r.series).toFixed(1)} cpu`) },
      ],
    },
    {
      title: 'Cost',
      rows: [
        {
          label: 'total',
          cells: s.map((x) => formatCost(x.cost.total)),
          ...(two && c !== undefined ? { difference: signed(c.costDeltaPercent, 1, ' %') } : {}),
        },
        { label: 'average', cells: s.map((x) => formatPerHour(x.cost.averagePerHour)) },
        { label: 'lower bound', cells: s.map((x) => formatCost(x.cost.lowerBound)) },
        { label: 'cost / lower bound', cells: s.map((x) => x.cost.lowerBoundRatio.toFixed(3)) },
      ],
    },
    {
      title: 'Utilisation (requests / allocatable, time-weighted)',
      rows: [
        {
          label: 'cpu',
          cells: s.map((x) => pct(x.utilisation.cpu)),
          ...(two && c !== undefined ? { difference: signed(c.utilisationDelta.cpu * 100, 1, ' pts') } : {}),
        },
        {
          label: 'memory',
          cells: s.map((x) => pct(x.utilisation.memory)),
          ...(two && c !== undefined
            ? { difference: signed(c.utilisationDelta.memory * 100, 1, ' pts') }
            : {}),
        },
      ],
    },
    {
      title: 'Pods',
      rows: [
        count('created', (x) => x.pods.created),
        count('evicted and recreated', (x) => x.pods.evicted),
        count('scheduled', (x) => x.pods.scheduled),
        count('pending at the end', (x) => x.pods.pendingAtEnd),
        seconds('pending p50', (x) => x.pods.pendingSeconds.p50, c?.pendingSecondsDelta.p50),
        seconds('pending p90', (x) => x.pods.pendingSeconds.p90, c?.pendingSecondsDelta.p90),
        seconds('pending p99', (x) => x.pods.pendingSeconds.p99),
        seconds('pending max', (x) => x.pods.pendingSeconds.max),
      ],
    },
    {
      title: 'Disruptions by reason',
      rows:
        reasons.length === 0
          ? [{ label: 'none', cells: s.map(() => '0') }]
          : reasons.map((reason) => count(reason, (x) => x.disruptions[reason] ?? 0)),
    },
  ];
}

const total = (r: Readonly<Record<string, number>>) => Object.values(r).reduce((a, v) => a + v, 0);

/**
 * What the comparison means, in sentences (pure): why the node churn differs, what the
 * evictions were, and the cost and utilisation verdict. Empty without a baseline.
 */
export function interpretComparison(result: SimulationResult): string[] {
  const base = result.baseline;
  if (base === undefined) return [];
  const own = result.summary;
  const other = base.summary;
  const name = base.autoscaler;
  const out: string[] = [];
  const decisions = total(own.decisions);
  const scaleDowns = total(other.decisions);
  const ownSize = averageNodeCpu(result.series);
  const otherSize = averageNodeCpu(base.series);
  const sizes = `its nodes averaged ${ownSize.toFixed(1)} cpu against ${otherSize.toFixed(1)}`;
  if (own.nodes.launched > other.nodes.launched) {
    out.push(
      `nodewright launched ${plural(own.nodes.launched, 'node')} to ${name}'s ${other.nodes.launched}: it launches nodes sized to each batch of pending pods (${sizes}) and consolidates them away or onto cheaper ones as the load changes (${plural(decisions, 'disruption decision')}), while ${name} adds nodes of its node groups' one instance type and removes only nodes that stay underused (${plural(scaleDowns, 'scale-down')}).`,
    );
  } else if (own.nodes.launched < other.nodes.launched) {
    out.push(
      `nodewright launched fewer nodes than ${name} (${own.nodes.launched} against ${other.nodes.launched}); ${sizes}.`,
    );
  } else {
    out.push(`Both launched ${plural(own.nodes.launched, 'node')}; ${sizes}.`);
  }
  if (own.pods.evicted > 0 || other.pods.evicted > 0) {
    out.push(
      `Draining those nodes evicted ${plural(own.pods.evicted, 'pod')} under nodewright and ${other.pods.evicted} under ${name}; their Deployments recreated them, which is why more pods were created (${own.pods.created} against ${other.pods.created}).`,
    );
  }
  const interrupted = [own, other].map((x) => x.disruptions.interruption ?? 0);
  if (interrupted[0] !== interrupted[1]) {
    const [a, b] = [result.series, base.series].map((x) => Math.round(spotNodeHours(x)));
    out.push(
      `Spot interruptions: ${interrupted[0]} under nodewright, ${interrupted[1]} under ${name}, over ${a} and ${b} spot node-hours (the simulated cloud interrupts each running spot instance at random, at the scenario's rate).`,
    );
  }
  const delta = result.comparison?.costDeltaPercent ?? 0;
  const verdict =
    Math.abs(delta) < 1
      ? 'about the same'
      : delta < 0
        ? `${(-delta).toFixed(1)} % less`
        : `${delta.toFixed(1)} % more`;
  const cpu = own.utilisation.cpu - other.utilisation.cpu;
  const cpuText =
    Math.abs(cpu) < 0.01
      ? 'the same cpu utilisation'
      : `${cpu > 0 ? 'higher' : 'lower'} cpu utilisation (${pct(own.utilisation.cpu)} against ${pct(other.utilisation.cpu)})`;
  out.push(
    `Cost: nodewright ${formatCost(own.cost.total)}, ${name} ${formatCost(other.cost.total)}: ${verdict}, with ${cpuText}.`,
  );
  return out;
}

/** `name: type` node groups as `name (type)`. */
export function nodeGroupsText(groups: readonly string[]): string {
  return groups.map((g) => g.replace(/^([^:]+): (.*)$/, '$1 ($2)')).join(', ');
}
