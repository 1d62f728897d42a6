import type {
  FleetSample,
  SimulationComparison,
  SimulationResult,
  SimulationSummary,
} from '@nodewright/core/simulation';
import { disruptionChart } from './simulate-disruption-chart.js';
import { escapeHtml as html, lineChart } from './simulate-svg.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const entries = (r: Readonly<Record<string, number>>) =>
  Object.entries(r).length === 0
    ? 'none'
    : Object.entries(r)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');

/** The summary as a few aligned lines for a terminal. */
export function renderSimulationText(s: SimulationSummary): string {
  return `${[
    `scenario        ${s.scenario} (seed ${s.seed}, ${s.durationHours} h simulated)`,
    `nodes           launched ${s.nodes.launched}, terminated ${s.nodes.terminated}, peak ${s.nodes.peak}, at end ${s.nodes.atEnd}`,
    `cost            ${s.cost.total.toFixed(2)} total, ${s.cost.averagePerHour.toFixed(3)}/h on average`,
    `utilisation     cpu ${pct(s.utilisation.cpu)}, memory ${pct(s.utilisation.memory)} (requests / allocatable, time-weighted)`,
    `pods            ${s.pods.created} created, ${s.pods.scheduled} scheduled, ${s.pods.pendingAtEnd} pending at the end`,
    `pending time    p50 ${s.pods.pendingSeconds.p50} s, p90 ${s.pods.pendingSeconds.p90} s, p99 ${s.pods.pendingSeconds.p99} s, max ${s.pods.pendingSeconds.max} s`,
    `disruptions     ${entries(s.disruptions)}`,
    `decisions       ${entries(s.decisions)}`,
  ].join('\n')}\n`;
}

const signed = (x: number, digits: number, unit = '') => `${x > 0 ? '+' : ''}${x.toFixed(digits)}${unit}`;

/** The comparison of the two runs as lines (negative cost and pending deltas favour nodewright). */
export function renderComparisonText(c: SimulationComparison): string[] {
  return [
    `cost delta      ${signed(c.costDeltaPercent, 1, ' %')} (nodewright vs baseline)`,
    `utilisation     cpu ${signed(c.utilisationDelta.cpu * 100, 1, ' pts')}, memory ${signed(c.utilisationDelta.memory * 100, 1, ' pts')}`,
    `pending time    p50 ${signed(c.pendingSecondsDelta.p50, 1, ' s')}, p90 ${signed(c.pendingSecondsDelta.p90, 1, ' s')}`,
  ];
}

/** Without a baseline the summary's lines; with one, both runs side by side and the comparison. */
export function renderSimulationResultText(result: SimulationResult): string {
  const base = result.baseline;
  if (base === undefined) return renderSimulationText(result.summary);
  const left = renderSimulationText(result.summary).trimEnd().split('\n');
  const right = renderSimulationText(base.summary).trimEnd().split('\n');
  const width = Math.max(...left.map((l) => l.length - 16));
  const rows = left.map((l, i) => {
    const label = l.slice(0, 16);
    const a = l.slice(16);
    const b = (right[i] ?? '').slice(16);
    return `${label}${a.padEnd(width)}  | ${b}`;
  });
  return `${[
    `${''.padEnd(16)}${'nodewright'.padEnd(width)}  | ${base.autoscaler} (${base.nodeGroups.join(', ')})`,
    ...rows,
    '',
    ...(result.comparison === undefined ? [] : renderComparisonText(result.comparison)),
  ].join('\n')}\n`;
}

interface Line {
  readonly label: string;
  readonly colour: string;
  readonly value: (s: FleetSample) => number;
  /** Another run's series for this line (the baseline's), drawn dashed. */
  readonly series?: readonly FleetSample[];
}

/** One inline SVG line chart of the series (hours along x); no scripts, no network. */
function chart(
  title: string,
  series: readonly FleetSample[],
  lines: readonly Line[],
  format = (v: number) => String(v),
): string {
  return lineChart(
    title,
    lines.map((l) => ({
      label: l.label,
      colour: l.colour,
      points: (l.series ?? series).map((s) => [s.hour, l.value(s)] as const),
      ...(l.series === undefined ? {} : { dashed: true }),
    })),
    { formatY: format },
  );
}

/** The baseline's lines (drawn dashed), or none without a baseline. */
function withBaseline(
  series: readonly FleetSample[] | undefined,
  lines: readonly Omit<Line, 'series'>[],
): Line[] {
  return series === undefined ? [] : lines.map((l) => ({ ...l, series }));
}

/**
 * A self-contained HTML page: the summary and charts of nodes by capacity type, cost, pods,
 * utilisation and disruptions by reason, the baseline's beside nodewright's when there is one.
 */
export function renderSimulationHtml(result: SimulationResult): string {
  const { summary, series } = result;
  const base = result.baseline;
  const rows = renderSimulationResultText(result)
    .trimEnd()
    .split('\n')
    .map((l) => {
      const k = l.slice(0, 16).trim();
      const cells = l.slice(16).split('  | ');
      return `<tr><th>${html(k)}</th>${cells.map((c) => `<td>${html(c.trim())}</td>`).join('')}</tr>`;
    })
    .join('');
  const util = (s: FleetSample, r: 'cpu' | 'memory') =>
    r === 'cpu'
      ? s.cpuAllocatable === 0
        ? 0
        : s.cpuRequested / s.cpuAllocatable
      : s.memoryAllocatable === 0
        ? 0
        : s.memoryRequested / s.memoryAllocatable;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>nodewright simulate: ${html(summary.scenario)}</title>
<style>body{font-family:sans-serif;margin:24px;max-width:800px}th{text-align:left;padding-right:16px;vertical-align:top}h2{font-size:15px;margin:24px 0 4px}.note{font-size:12px;color:#666;margin:2px 0}</style>
</head><body>
<h1>${html(summary.scenario)}</h1>
<table>${rows}</table>
${base === undefined ? '' : `<p>Solid lines: nodewright. Dashed: ${html(base.autoscaler)} on ${html(base.nodeGroups.join(', '))}.</p>`}
${chart('Nodes by capacity type', series, [
  { label: 'all', colour: '#333', value: (s) => s.nodes },
  { label: 'spot', colour: '#e67e22', value: (s) => s.spotNodes },
  { label: 'on-demand', colour: '#2980b9', value: (s) => s.onDemandNodes },
  ...withBaseline(base?.series, [{ label: 'baseline all', colour: '#333', value: (s) => s.nodes }]),
])}
${chart(
  'Cost per hour',
  series,
  [
    { label: 'cost/h', colour: '#27ae60', value: (s) => s.costPerHour },
    ...withBaseline(base?.series, [
      { label: 'baseline cost/h', colour: '#27ae60', value: (s) => s.costPerHour },
    ]),
  ],
  (v) => v.toFixed(2),
)}
${chart('Pods', series, [
  { label: 'pending', colour: '#c0392b', value: (s) => s.podsPending },
  { label: 'running', colour: '#8e44ad', value: (s) => s.podsRunning },
  ...withBaseline(base?.series, [
    { label: 'baseline pending', colour: '#c0392b', value: (s) => s.podsPending },
  ]),
])}
${chart(
  'Utilisation (requests / allocatable)',
  series,
  [
    { label: 'cpu', colour: '#16a085', value: (s) => util(s, 'cpu') },
    { label: 'memory', colour: '#d35400', value: (s) => util(s, 'memory') },
    ...withBaseline(base?.series, [
      { label: 'baseline cpu', colour: '#16a085', value: (s) => util(s, 'cpu') },
      { label: 'baseline memory', colour: '#d35400', value: (s) => util(s, 'memory') },
    ]),
  ],
  (v) => `${Math.round(v * 100)}%`,
)}
${disruptionChart([
  { label: 'nodewright', series },
  ...(base === undefined ? [] : [{ label: base.autoscaler, series: base.series }]),
])}
</body></html>
`;
}
