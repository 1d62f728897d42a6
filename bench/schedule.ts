// Scheduling benchmark: Karpenter's (kubernetes-sigs/karpenter's scheduling_benchmark_test.go)
// against nodewright's solver, plus a large realistic catalog.
// Run with `pnpm bench:schedule` (builds first; imports the built packages). See README.md.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Pod } from '../packages/core/dist/apis/index.js';
import type { InstanceType } from '../packages/core/dist/cloudprovider/index.js';
import type { ResourceList, SolverInput, SolverResult } from '../packages/core/dist/scheduling/index.js';
import { solve } from '../packages/core/dist/scheduling/index.js';
import { explainLowerBound } from '../packages/core/dist/scheduling/lower-bound/index.js';
import { calibrate, watchHeapPeak, Xorshift32 } from './calibration.ts';
import {
  type BenchPod,
  karpenterInstanceTypes,
  karpenterPods,
  Seed,
  unlimitedNodePool,
} from './karpenter-benchmark.ts';
import { largeCatalog } from './large-catalog.ts';
import { measurePacking, packingReport } from './packing-run.ts';

// ---------------------------------------------------------------------------------------------
// Measuring

interface Measured {
  readonly seconds: number;
  readonly result: SolverResult;
  readonly peakHeapMiB: number;
}

/**
 * Times one solve and finds its peak heap: the heap only shrinks at a collection, so the peak
 * is the largest used size seen just before a collection (V8's GC profiler records them) or at
 * the end. With --expose-gc the heap is collected first, so earlier garbage does not count.
 */
function measure(input: SolverInput): Measured {
  const heapPeak = watchHeapPeak();
  const start = performance.now();
  const result = solve(input);
  const seconds = (performance.now() - start) / 1000;
  return { seconds, result, peakHeapMiB: heapPeak() };
}

/** Median by seconds. */
function median(runs: readonly Measured[]): Measured {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** price / provable lower bound over the pods placed on new claims (1 is optimal). */
function priceRatio(
  result: SolverResult,
  requestsOf: ReadonlyMap<Pod, ResourceList>,
  types: readonly InstanceType[],
) {
  const pods = result.newClaims.flatMap((c) => c.pods);
  const bound = explainLowerBound(
    pods.map((p) => requestsOf.get(p)!),
    types,
  );
  const price = result.newClaims.reduce((sum, c) => sum + c.price, 0);
  return bound.perHour > 0 ? price / bound.perHour : Number.NaN;
}

// ---------------------------------------------------------------------------------------------
// Running

interface Line {
  readonly label: string;
  readonly catalog: string;
  readonly pods: number;
  readonly scheduled: number;
  readonly unschedulable: number;
  readonly nodeClaims: number;
  readonly seconds: number;
  readonly podsPerSecond: number;
  readonly ratio: number;
  readonly genericRatio: number;
  readonly peakHeapMiB: number;
}

interface Options {
  readonly sizes: number[];
  readonly repeat: number;
  readonly largePods: number;
  readonly report: string;
  readonly packing: number;
  readonly packingSeconds: number;
}

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    sizes: (value('--sizes') ?? '1000,5000,20000').split(',').map(Number),
    repeat: Number(value('--repeat') ?? 3),
    largePods: Number(value('--large-pods') ?? 5000),
    report: value('--report') ?? 'reports/schedule-bench.html',
    packing: Number(value('--packing') ?? 50),
    packingSeconds: Number(value('--packing-seconds') ?? 10),
  };
}

function progress(text: string): void {
  process.stderr.write(`${text}\n`);
}

function runCase(label: string, catalog: string, pods: number, types: InstanceType[], repeat: number): Line {
  const all = karpenterPods(pods, new Xorshift32(Seed));
  const requestsOf = new Map(all.map((p) => [p.pod, p.requests]));
  const input = (selected: readonly BenchPod[]): SolverInput => ({
    pods: selected.map((p) => p.pod),
    existing: [],
    daemonSets: [],
    nodePools: [unlimitedNodePool()],
    instanceTypes: new Map([['default', types]]),
  });
  const runs: Measured[] = [];
  for (let r = 0; r < repeat; r++) {
    progress(`  ${label}: solving ${pods.toLocaleString('en-US')} pods, run ${r + 1} of ${repeat} ...`);
    runs.push(measure(input(all)));
    progress(`    ${runs.at(-1)!.seconds.toFixed(3)} s`);
  }
  const m = median(runs);
  const generic = all.filter((p) => p.fifth === 'generic');
  progress(
    `  ${label}: solving the generic fifth alone (${generic.length.toLocaleString('en-US')} pods) ...`,
  );
  const genericResult = solve(input(generic));
  const scheduled = m.result.newClaims.reduce((n, c) => n + c.pods.length, 0);
  return {
    label,
    catalog,
    pods,
    scheduled,
    unschedulable: m.result.unschedulable.length,
    nodeClaims: m.result.newClaims.length,
    seconds: m.seconds,
    podsPerSecond: pods / m.seconds,
    ratio: priceRatio(m.result, requestsOf, types),
    genericRatio: priceRatio(genericResult, requestsOf, types),
    peakHeapMiB: m.peakHeapMiB,
  };
}

const Header = [
  'case'.padEnd(22),
  'pods'.padStart(7),
  'claims'.padStart(7),
  'unsched'.padStart(8),
  'seconds'.padStart(8),
  'pods/s'.padStart(8),
  'price/LB'.padStart(9),
  'generic'.padStart(8),
  'heap MiB'.padStart(9),
  'x1k'.padStart(6),
  'x calib'.padStart(8),
].join(' ');

function formatLine(line: Line, baseline: { thousand: number; calibration: number }): string {
  return [
    line.label.padEnd(22),
    String(line.pods).padStart(7),
    String(line.nodeClaims).padStart(7),
    String(line.unschedulable).padStart(8),
    line.seconds.toFixed(3).padStart(8),
    Math.round(line.podsPerSecond).toString().padStart(8),
    line.ratio.toFixed(3).padStart(9),
    line.genericRatio.toFixed(3).padStart(8),
    line.peakHeapMiB.toFixed(0).padStart(9),
    (line.seconds / baseline.thousand).toFixed(2).padStart(6),
    (line.seconds / baseline.calibration).toFixed(1).padStart(8),
  ].join(' ');
}

function htmlReport(lines: readonly Line[], baseline: { thousand: number; calibration: number }): string {
  const width = 640;
  const barHeight = 26;
  const labelWidth = 190;
  const max = Math.max(...lines.map((l) => l.podsPerSecond));
  const bars = lines
    .map((l, i) => {
      const w = ((width - labelWidth - 90) * l.podsPerSecond) / max;
      const y = i * (barHeight + 8);
      return `<text x="0" y="${y + 18}" font-size="13">${escapeHtml(l.label)}</text>
<rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${barHeight}" fill="#3b7dd8"/>
<text x="${(labelWidth + w + 6).toFixed(1)}" y="${y + 18}" font-size="13">${Math.round(l.podsPerSecond)} pods/s</text>`;
    })
    .join('\n');
  const rows = lines
    .map(
      (l) =>
        `<tr><td>${escapeHtml(l.label)}</td><td>${escapeHtml(l.catalog)}</td><td>${l.pods}</td><td>${l.nodeClaims}</td><td>${l.unschedulable}</td><td>${l.seconds.toFixed(3)}</td><td>${Math.round(l.podsPerSecond)}</td><td>${l.ratio.toFixed(3)}</td><td>${l.genericRatio.toFixed(3)}</td><td>${l.peakHeapMiB.toFixed(0)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>nodewright scheduling benchmark</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:60em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}td:first-child,td:nth-child(2){text-align:left}</style></head>
<body><h1>nodewright scheduling benchmark</h1>
<p>Karpenter's benchmark (400 instance types, one unlimited NodePool, pods in fifths) and a large catalog; solve time only.
Node ${escapeHtml(process.version)}, ${new Date().toISOString()}. Calibration ${baseline.calibration.toFixed(3)} s; 1,000 pods ${baseline.thousand.toFixed(3)} s.
Karpenter published (2025, laptop): 1,000 pods 0.78 s, 5,000 pods 3.7 s, 20,000 pods 20 s.</p>
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${lines.length * (barHeight + 8)}" role="img" aria-label="pods per second per case">
${bars}
</svg>
<table><tr><th>case</th><th>catalog</th><th>pods</th><th>NodeClaims</th><th>unschedulable</th><th>seconds</th><th>pods/s</th><th>price/lower bound</th><th>generic fifth</th><th>peak heap MiB</th></tr>
${rows}
</table></body></html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  progress('calibrating ...');
  const calibration = calibrate();
  const karpenterTypes = karpenterInstanceTypes(400);
  progress('warming up (200 pods, not reported) ...');
  solve({
    pods: karpenterPods(200, new Xorshift32(Seed + 1)).map((p) => p.pod),
    existing: [],
    daemonSets: [],
    nodePools: [unlimitedNodePool()],
    instanceTypes: new Map([['default', karpenterTypes]]),
  });

  const lines: Line[] = [];
  for (const size of options.sizes) {
    const repeat = size >= 20_000 ? Math.min(options.repeat, 1) : options.repeat;
    lines.push(
      runCase(`karpenter ${size.toLocaleString('en-US')}`, '400 fake types', size, karpenterTypes, repeat),
    );
  }
  if (options.largePods > 0) {
    progress('building the large catalog ...');
    const large = largeCatalog();
    lines.push(
      runCase(
        `large ${options.largePods.toLocaleString('en-US')}`,
        `${large.length} types x 6 zones x 2`,
        options.largePods,
        large,
        options.repeat,
      ),
    );
  }

  const thousand =
    lines.find((l) => l.pods === 1000 && l.label.startsWith('karpenter'))?.seconds ?? lines[0]!.seconds;
  const baseline = { thousand, calibration };
  console.log(
    `baseline: calibration ${calibration.toFixed(3)} s on this machine; karpenter 1,000 pods ${thousand.toFixed(3)} s (x1k and x calib columns divide by these)`,
  );
  console.log(Header);
  for (const line of lines) console.log(formatLine(line, baseline));

  if (options.packing > 0) {
    const packing = await measurePacking(options.packing, options.packingSeconds, progress);
    console.log('');
    for (const line of packingReport(packing)) console.log(line);
  }

  const path = resolve(options.report);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, htmlReport(lines, baseline));
  progress(`report written to ${options.report}`);
}

await main();
