// Simulation benchmark: every shipped scenario (examples/scenarios), under nodewright and under
// the Cluster Autoscaler baseline, timed in this process with the counts that explain the time.
// Run with `pnpm bench:simulate` (builds first; imports the built packages). See README.md.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { catalogWellKnownLabels, instanceTypesFromCatalog } from '../packages/core/dist/catalog/index.js';
import * as scheduling from '../packages/core/dist/scheduling/index.js';
import {
  formatScenarioError,
  parseScenario,
  type RunSimulationOptions,
  runClusterAutoscalerBaseline,
  runSimulation,
  type Scenario,
  type SimulationProgress,
  type SimulationWork,
} from '../packages/core/dist/simulation/index.js';
import { kwokCatalogProvider } from '../providers/kwok/dist/index.js';
import { calibrate, cpuSeconds, watchHeapPeak } from './calibration.ts';

const HOUR = 3_600_000;
// Looked up rather than imported, so this file also measures commits from before the channel
// existed (their solver counts show as "-").
const solveChannel = (scheduling as { SolveChannel?: { readonly name: string | symbol } }).SolveChannel;
const ScenarioDir = resolve(import.meta.dirname, '../examples/scenarios');
// Scenarios too long for the pinned-summary test, which runs every shipped one in full: run only
// when named with --scenarios.
const ScaleScenarioDir = resolve(import.meta.dirname, 'scenarios');

interface Options {
  readonly scenarios: readonly string[];
  readonly baseline: boolean;
  readonly repeat: number;
  /** Simulated hours to stop after (the scenario's own duration when shorter); all when absent. */
  readonly hours: number | undefined;
}

const yamlIn = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort();

function scenarioPath(file: string): string {
  return resolve(yamlIn(ScenarioDir).includes(file) ? ScenarioDir : ScaleScenarioDir, file);
}

function parseOptions(argv: readonly string[]): Options {
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const shipped = yamlIn(ScenarioDir);
  const all = [...shipped, ...yamlIn(ScaleScenarioDir)];
  const picked = value('--scenarios')?.split(',') ?? shipped;
  for (const p of picked) {
    if (!all.includes(p))
      throw new Error(
        `--scenarios: no ${p} in examples/scenarios or bench/scenarios (there: ${all.join(', ')})`,
      );
  }
  const hours = value('--hours');
  if (hours !== undefined && !(Number(hours) > 0))
    throw new Error(`--hours: ${hours} is not a positive number`);
  return {
    scenarios: picked,
    baseline: !argv.includes('--no-baseline'),
    repeat: Number(value('--repeat') ?? 1),
    hours: hours === undefined ? undefined : Number(hours),
  };
}

function progress(text: string): void {
  process.stderr.write(`${text}\n`);
}

/** One run's figures. */
interface Line {
  readonly scenario: string;
  readonly run: 'nodewright' | 'cluster-autoscaler';
  readonly hours: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  /** Undefined for commits from before RunSimulationOptions.onWork. */
  readonly work: SimulationWork | undefined;
  readonly solves: number | undefined;
  readonly peakHeapMiB: number;
}

function loadScenario(file: string, hours: number | undefined): Scenario {
  const parsed = parseScenario(readFileSync(scenarioPath(file), 'utf8'), file);
  if (parsed.scenario === undefined) throw new Error(parsed.errors.map(formatScenarioError).join('\n'));
  if (parsed.scenario.catalog !== 'kwok')
    throw new Error(`${file}: the benchmark runs kwok-catalog scenarios only`);
  const { scenario } = parsed;
  return hours === undefined
    ? scenario
    : { ...scenario, duration: Math.min(scenario.duration, hours * HOUR) };
}

async function runOnce(file: string, run: Line['run'], hours: number | undefined): Promise<Line> {
  const scenario = loadScenario(file, hours);
  const catalog = await kwokCatalogProvider.catalog();
  const instanceTypes = instanceTypesFromCatalog(catalog).instanceTypes;
  let work: SimulationWork | undefined;
  let solves = 0;
  const countSolve = () => {
    solves++;
  };
  const label = `${basename(file, '.yaml')} / ${run}`;
  const options: RunSimulationOptions = {
    scenario,
    instanceTypes,
    wallClock: () => performance.now(),
    progressEveryMs: 2_000,
    onProgress: (p: SimulationProgress) =>
      progress(
        `  ${label}: ${(p.simulatedMs / HOUR).toFixed(1)} of ${(p.durationMs / HOUR).toFixed(1)} h, ${(p.wallMs / 1000).toFixed(1)} s${p.etaMs === undefined ? '' : `, about ${(p.etaMs / 1000).toFixed(0)} s to go`}`,
      ),
    onWork: (w) => {
      work = w;
    },
  };
  if (solveChannel !== undefined) subscribe(solveChannel.name, countSolve);
  const heapPeak = watchHeapPeak();
  const start = performance.now();
  const cpuStart = cpuSeconds();
  try {
    if (run === 'nodewright')
      await runSimulation({ ...options, wellKnownLabels: catalogWellKnownLabels([catalog]) });
    else await runClusterAutoscalerBaseline(options);
  } finally {
    if (solveChannel !== undefined) unsubscribe(solveChannel.name, countSolve);
  }
  const seconds = (performance.now() - start) / 1000;
  const cpu = cpuSeconds() - cpuStart;
  return {
    scenario: basename(file, '.yaml'),
    run,
    hours: scenario.duration / HOUR,
    seconds,
    cpuSeconds: cpu,
    work,
    solves: solveChannel === undefined ? undefined : solves,
    peakHeapMiB: heapPeak(),
  };
}

const Columns: ReadonlyArray<readonly [string, number]> = [
  ['scenario', 16],
  ['run', 19],
  ['sim h', 6],
  ['wall s', 8],
  ['sim h/s', 8],
  ['x calib', 8],
  ['cpu s', 8],
  ['cpu x cal', 9],
  ['h/calib', 8],
  ['reconc/h', 9],
  ['solves/h', 9],
  ['api req/h', 10],
  ['timers/h', 9],
  ['heap MiB', 9],
];

/** Calibration seconds: wall, and CPU (the CPU ratio holds better on a machine others load). */
interface Calibration {
  readonly wall: number;
  readonly cpu: number;
}

function formatLine(l: Line, calibration: Calibration): string {
  const perHour = (n: number | undefined) =>
    n === undefined ? '-' : Math.round(n / l.hours).toLocaleString('en-US');
  const cells = [
    l.scenario,
    l.run,
    l.hours.toFixed(0),
    l.seconds.toFixed(2),
    (l.hours / l.seconds).toFixed(2),
    (l.seconds / calibration.wall).toFixed(0),
    l.cpuSeconds.toFixed(2),
    (l.cpuSeconds / calibration.cpu).toFixed(0),
    ((l.hours / l.seconds) * calibration.wall).toFixed(3),
    perHour(l.work?.reconciles),
    perHour(l.solves),
    perHour(l.work?.clusterRequests),
    perHour(l.work?.timersFired),
    l.peakHeapMiB.toFixed(0),
  ];
  return cells.map((c, i) => (i < 2 ? c.padEnd(Columns[i]![1]) : c.padStart(Columns[i]![1]))).join(' ');
}

/** The median of `repeat` runs, by wall time (the counts are the same in every run). */
async function runCase(
  file: string,
  run: Line['run'],
  repeat: number,
  hours: number | undefined,
): Promise<Line> {
  const runs: Line[] = [];
  for (let r = 0; r < repeat; r++) {
    progress(`${basename(file, '.yaml')} / ${run}${repeat > 1 ? `, run ${r + 1} of ${repeat}` : ''} ...`);
    runs.push(await runOnce(file, run, hours));
    progress(`  ${runs.at(-1)!.seconds.toFixed(2)} s`);
  }
  runs.sort((a, b) => a.seconds - b.seconds);
  return runs[Math.floor(runs.length / 2)]!;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  progress('calibrating ...');
  const before = { wall: calibrate(), cpu: calibrate(cpuSeconds) };
  const lines: Line[] = [];
  for (const file of options.scenarios) {
    lines.push(await runCase(file, 'nodewright', options.repeat, options.hours));
    if (options.baseline)
      lines.push(await runCase(file, 'cluster-autoscaler', options.repeat, options.hours));
  }
  progress('calibrating again ...');
  // Calibrated before and after, the smaller taken: a busy machine slows the calibration too, and
  // the quieter moment is the better estimate of this machine's speed.
  const calibration = {
    wall: Math.min(before.wall, calibrate()),
    cpu: Math.min(before.cpu, calibrate(cpuSeconds)),
  };
  console.log(
    `calibration ${calibration.wall.toFixed(3)} s wall, ${calibration.cpu.toFixed(3)} s CPU on this machine (x calib = wall / calibration; cpu x cal = CPU seconds / calibration CPU seconds; h/calib = simulated hours per calibration)`,
  );
  console.log(
    Columns.map(([name, width], i) => (i < 2 ? name.padEnd(width) : name.padStart(width))).join(' '),
  );
  for (const line of lines) console.log(formatLine(line, calibration));
}

await main();
