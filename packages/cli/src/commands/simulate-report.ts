import type { FleetSample, SimulationResult, SimulationSummary } from '@nodewright/core/simulation';
import { formatCost, formatDollarsForStep, formatPerHour, wrapText } from '../format/index.js';
import { disruptionChart } from './simulate-disruption-chart.js';
import { interpretComparison, nodeGroupsText, summaryRuns, summarySections } from './simulate-summary.js';
import { type ChartLine, escapeHtml as html, lineChart } from './simulate-svg.js';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const entries = (r: Readonly<Record<string, number>>) =>
  Object.entries(r).length === 0
    ? 'none'
    : Object.entries(r)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');

/** The summary as a few aligned lines for a terminal. */
export function renderSimulationText(s: SimulationSummary): string {
  const evicted = s.pods.evicted > 0 ? ` (${s.pods.evicted} of them recreated after an eviction)` : '';
  return `${[
    `scenario        ${s.scenario} (seed ${s.seed}, ${s.durationHours} h simulated)`,
    `nodes           launched ${s.nodes.launched}, terminated ${s.nodes.terminated}, peak ${s.nodes.peak}, at end ${s.nodes.atEnd}`,
    `cost            ${formatCost(s.cost.total)} total, ${formatPerHour(s.cost.averagePerHour)} on average`,
    `lower bound     ${formatCost(s.cost.lowerBound)} (cheapest capacity for the pods requested each minute); cost / bound ${s.cost.lowerBoundRatio.toFixed(3)}`,
    `utilisation     cpu ${pct(s.utilisation.cpu)}, memory ${pct(s.utilisation.memory)} (requests / allocatable, time-weighted)`,
    `pods            ${s.pods.created} created${evicted}, ${s.pods.scheduled} scheduled, ${s.pods.pendingAtEnd} pending at the end`,
    `pending time    p50 ${s.pods.pendingSeconds.p50} s, p90 ${s.pods.pendingSeconds.p90} s, p99 ${s.pods.pendingSeconds.p99} s, max ${s.pods.pendingSeconds.max} s`,
    `disruptions     ${entries(s.disruptions)}`,
    `decisions       ${entries(s.decisions)}`,
  ].join('\n')}\n`;
}

/**
 * With a baseline: the scenario, a table of both runs by section (headings nodewright, the
 * baseline, difference), the node groups, each run's decisions and what the comparison means.
 */
export function renderSimulationResultText(result: SimulationResult): string {
  const base = result.baseline;
  if (base === undefined) return renderSimulationText(result.summary);
  const s = result.summary;
  const sections = summarySections(result);
  const labelWidth = Math.max(...sections.flatMap((x) => x.rows.map((r) => r.label.length + 2)));
  const widths = [0, 1].map((i) =>
    Math.max(
      i === 0 ? 'nodewright'.length : base.autoscaler.length,
      ...sections.flatMap((x) => x.rows.map((r) => r.cells[i]?.length ?? 0)),
    ),
  );
  const row = (label: string, cells: readonly string[], difference = '') =>
    `${label.padEnd(labelWidth)}  ${cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')}  ${difference}`.trimEnd();
  const lines = [
    `${s.scenario} (seed ${s.seed}, ${s.durationHours} h simulated), nodewright against ${base.autoscaler}`,
    '',
    row('', ['nodewright', base.autoscaler], 'difference'),
  ];
  for (const section of sections) {
    lines.push(section.title);
    for (const r of section.rows) lines.push(row(`  ${r.label}`, r.cells, r.difference));
  }
  lines.push(
    '',
    `${base.autoscaler} node groups: ${nodeGroupsText(base.nodeGroups)}`,
    `decisions: nodewright ${entries(s.decisions)}; ${base.autoscaler} ${entries(base.summary.decisions)}`,
    ...interpretComparison(result).flatMap((sentence) => ['', ...wrapText(sentence)]),
  );
  return `${lines.join('\n')}\n`;
}

/** The short name charts use for a baseline's lines, so legends fit. */
const ShortNames: Readonly<Record<string, string>> = { 'cluster-autoscaler': 'CA' };

/** One run as the charts draw it: nodewright's solid, the baseline's dashed. */
interface ChartRun {
  readonly label: string;
  readonly series: readonly FleetSample[];
  readonly summary: SimulationSummary;
  readonly dashed: boolean;
}

/** One line per run of a value of the samples, labelled `label` (prefixed for the baseline). */
function runLines(
  runs: readonly ChartRun[],
  label: string,
  colour: string,
  value: (s: FleetSample) => number,
): ChartLine[] {
  return runs.map((r) => ({
    label: r.dashed ? `${r.label} ${label}` : label,
    colour,
    points: r.series.map((s) => [s.hour, value(s)] as const),
    ...(r.dashed ? { dashed: true } : {}),
  }));
}

const util = (s: FleetSample, r: 'cpu' | 'memory') => {
  const [requested, allocatable] =
    r === 'cpu' ? [s.cpuRequested, s.cpuAllocatable] : [s.memoryRequested, s.memoryAllocatable];
  return allocatable === 0 ? 0 : requested / allocatable;
};

/**
 * A run's nodes by capacity type: one line per capacity type it ran, and "all" only when it
 * ran both (with one, "all" would lie hidden under it).
 */
function nodeLines(run: ChartRun): ChartLine[] {
  const spot = run.series.some((s) => s.spotNodes > 0);
  const onDemand = run.series.some((s) => s.onDemandNodes > 0);
  const one: ChartRun[] = [run];
  return [
    ...(spot && onDemand ? runLines(one, 'all', '#333', (s) => s.nodes) : []),
    ...(spot || !onDemand ? runLines(one, 'spot', '#e67e22', (s) => s.spotNodes) : []),
    ...(onDemand ? runLines(one, 'on-demand', '#2980b9', (s) => s.onDemandNodes) : []),
  ];
}

/** The summary as a table: a column per run, a difference column beside a baseline. */
function summaryTable(result: SimulationResult): string {
  const runs = summaryRuns(result);
  const two = runs.length === 2;
  const head = `<thead><tr><th></th>${runs.map((r) => `<th>${html(r.label)}</th>`).join('')}${two ? '<th>difference</th>' : ''}</tr></thead>`;
  const span = runs.length + (two ? 2 : 1);
  const body = summarySections(result)
    .map(
      (section) =>
        `<tr class="section"><th colspan="${span}">${html(section.title)}</th></tr>` +
        section.rows
          .map(
            (r) =>
              `<tr><th>${html(r.label)}</th>${r.cells.map((c) => `<td>${html(c)}</td>`).join('')}${two ? `<td class="difference">${html(r.difference ?? '')}</td>` : ''}</tr>`,
          )
          .join(''),
    )
    .join('');
  return `<table class="summary">${head}<tbody>${body}</tbody></table>`;
}

/**
 * A self-contained HTML page: the summary table (both runs and their difference when there is
 * a baseline, with what it means), then charts of nodes by capacity type, cost, pods,
 * utilisation and disruptions by reason, the baseline's beside nodewright's.
 */
export function renderSimulationHtml(result: SimulationResult): string {
  const { summary } = result;
  const base = result.baseline;
  const short = base === undefined ? '' : (ShortNames[base.autoscaler] ?? base.autoscaler);
  const runs: ChartRun[] = [
    { label: 'nodewright', series: result.series, summary, dashed: false },
    ...(base === undefined
      ? []
      : [{ label: short, series: base.series, summary: base.summary, dashed: true }]),
  ];
  const hours = summary.durationHours;
  const common = { maxX: hours, xTitle: 'hours since the start' };
  const dollars = (v: number, step: number) => formatDollarsForStep(v, step);
  const percent = (v: number) => `${Math.round(v * 100)} %`;
  const meaning = interpretComparison(result);
  const intro =
    base === undefined
      ? ''
      : `<p>${html(base.autoscaler)} ran on the node groups ${html(nodeGroupsText(base.nodeGroups))}. In the charts nodewright's lines are solid, ${html(base.autoscaler)}'s (${html(short)}) dashed.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>nodewright simulate: ${html(summary.scenario)}</title>
<style>body{font-family:sans-serif;margin:24px;max-width:800px}table.summary{border-collapse:collapse;margin:8px 0}table.summary th,table.summary td{text-align:left;padding:2px 16px 2px 0;vertical-align:top}table.summary thead th{border-bottom:1px solid #999}table.summary tr.section th{padding-top:10px;font-size:13px;color:#444}table.summary tbody tr:not(.section) th{font-weight:normal;padding-left:12px}td.difference{color:#555}h2{font-size:15px;margin:24px 0 4px}.note{font-size:12px;color:#666;margin:2px 0}</style>
</head><body>
<h1>${html(summary.scenario)}</h1>
<p>Seed ${html(String(summary.seed))}, ${html(String(summary.durationHours))} h simulated${base === undefined ? '' : `, nodewright against ${html(base.autoscaler)}`}.</p>
${summaryTable(result)}
${meaning.length === 0 ? '' : `<div class="interpretation">${meaning.map((m) => `<p>${html(m)}</p>`).join('')}</div>`}
${intro}
${lineChart('Nodes by capacity type', runs.flatMap(nodeLines), {
  ...common,
  yTitle: 'nodes',
  minStepY: 1,
  marks: runs.map((r) => ({
    value: r.summary.nodes.peak,
    label: `${r.label} peak ${r.summary.nodes.peak}`,
    colour: r.dashed ? '#888' : '#333',
  })),
})}
<p class="note">Dotted: each run's peak from the summary, the most instances at once, counting those still launching; the lines count registered nodes once a minute, so they can stay just below it.</p>
${lineChart(
  'Cost per hour',
  [
    ...runLines(runs, 'cost', '#27ae60', (s) => s.costPerHour),
    ...runLines(runs.slice(0, 1), 'lower bound', '#95a5a6', (s) => s.lowerBoundPerHour),
  ],
  {
    ...common,
    yTitle: '$ per hour',
    formatY: dollars,
  },
)}
<p class="note">Grey: the lower bound, the cheapest capacity the NodePools could buy to hold the pods requested at that minute (nodewright's run). Over the run: nodewright ${html(formatCost(summary.cost.lowerBound))}, cost / bound ${summary.cost.lowerBoundRatio.toFixed(3)}${base === undefined ? '' : `; ${html(base.autoscaler)} cost / its bound ${base.summary.cost.lowerBoundRatio.toFixed(3)}`}.</p>
${lineChart(
  'Pods',
  [
    ...runLines(runs, 'running', '#8e44ad', (s) => s.podsRunning),
    ...runLines(runs, 'pending', '#c0392b', (s) => s.podsPending),
  ],
  { ...common, yTitle: 'pods', minStepY: 1 },
)}
${lineChart(
  'Utilisation (requests / allocatable)',
  [
    ...runLines(runs, 'cpu', '#16a085', (s) => util(s, 'cpu')),
    ...runLines(runs, 'memory', '#d35400', (s) => util(s, 'memory')),
  ],
  { ...common, yTitle: '% of allocatable requested', maxY: 1, formatY: percent },
)}
${disruptionChart([
  { label: 'nodewright', series: result.series },
  ...(base === undefined ? [] : [{ label: base.autoscaler, series: base.series }]),
])}
</body></html>
`;
}
