// Event-loop responsiveness benchmark (issue 14, item 3): a 20,000-pod provisioning solve and a
// consolidation pass over 2,000 nodes, each run unsliced (`solve`, `computeDisruption`: one
// synchronous stretch) and sliced (`solveInSlices`, `computeDisruptionInSlices`: a turn for the
// event loop every 20 ms), in this process, while a 10 ms ticker and Node's event-loop delay
// histogram run. Prints the longest gap between ticks, the delay p99 and max, the wall time, and
// the sliced run's figures as ratios to the unsliced run's. Run with `pnpm bench:event-loop`
// (builds first; imports the built packages). See README.md.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { deferToEventLoop, timeSlices } from '../packages/core/dist/clock/index.js';
import type { DisruptionSnapshot } from '../packages/core/dist/disruption/index.js';
import { computeDisruption, computeDisruptionInSlices } from '../packages/core/dist/disruption/index.js';
import { benchmarkInput, solve, solveInSlices } from '../packages/core/dist/scheduling/solver/index.js';
import { cluster, nodesWithPods, T0 } from '../packages/core/dist/testing/disruption-builders.js';
import { aNodePool } from '../packages/core/dist/testing/nodepool-builder.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const pods = option('--pods', 20_000);
const nodes = option('--nodes', 2_000);
const sliceMs = option('--slice-ms', 20);

interface Responsiveness {
  readonly wallMs: number;
  readonly ticks: number;
  /** Longest stretch without a tick, including the one from the last tick to the end. */
  readonly maxGapMs: number;
  readonly p99Ms: number;
  readonly maxDelayMs: number;
}

/** Runs `work` under a 10 ms ticker and Node's event-loop delay histogram (10 ms resolution). */
async function measure(work: () => unknown): Promise<Responsiveness> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  // Enabled a few periods ahead (and never reset): the histogram measures each sample against
  // the one before, so a stall at its very start would go unrecorded.
  histogram.enable();
  await new Promise((resolve) => setTimeout(resolve, 50));
  let ticks = 0;
  let maxGapMs = 0;
  const start = performance.now();
  let last = start;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
    ticks++;
  }, 10);
  await work();
  const end = performance.now();
  // The histogram records a stall when its sampling timer next fires: give it one period.
  await new Promise((resolve) => setTimeout(resolve, 15));
  histogram.disable();
  clearInterval(timer);
  return {
    wallMs: end - start,
    ticks,
    maxGapMs: Math.max(maxGapMs, end - last),
    p99Ms: histogram.percentile(99) / 1e6,
    maxDelayMs: histogram.max / 1e6,
  };
}

const slices = () => timeSlices(() => performance.now(), deferToEventLoop, sliceMs);

/** `nodes` medium nodes, half with a 1-cpu pod and half with a 500m pod: room to consolidate. */
function consolidationSnapshot(): DisruptionSnapshot {
  const everyNode = [aNodePool({ spec: { disruption: { budgets: [{ nodes: '100%' }] } } })];
  const half = Math.floor(nodes / 2);
  return cluster({
    pools: everyNode,
    nodes: [...nodesWithPods('a', half, 1, '1'), ...nodesWithPods('b', nodes - half, 1, '500m')],
  });
}

function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}

function line(name: string, r: Responsiveness, base?: Responsiveness): string {
  const ratios =
    base === undefined
      ? ''
      : `  | max gap x${fmt(r.maxGapMs / base.maxGapMs, 3)}, p99 x${fmt(r.p99Ms / base.p99Ms, 3)}, wall x${fmt(r.wallMs / base.wallMs, 3)}`;
  return `${name.padEnd(38)} wall ${fmt(r.wallMs, 0).padStart(6)} ms  ticks ${String(r.ticks).padStart(4)}  max gap ${fmt(r.maxGapMs).padStart(7)} ms  delay p99 ${fmt(r.p99Ms).padStart(7)} ms  max ${fmt(r.maxDelayMs).padStart(7)} ms${ratios}`;
}

const repeat = option('--repeat', 3);

/** The median of each figure over the runs (each figure on its own). */
function median(runs: readonly Responsiveness[]): Responsiveness {
  const mid = (pick: (r: Responsiveness) => number) => {
    const sorted = runs.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
  return {
    wallMs: mid((r) => r.wallMs),
    ticks: mid((r) => r.ticks),
    maxGapMs: mid((r) => r.maxGapMs),
    p99Ms: mid((r) => r.p99Ms),
    maxDelayMs: mid((r) => r.maxDelayMs),
  };
}

/** Both ways `repeat` times, alternating which goes first, so drift in machine load hits both. */
async function compare(whole: () => unknown, sliced: () => Promise<unknown>) {
  whole(); // warm-up, unmeasured: the first run also compiles the code
  const a: Responsiveness[] = [];
  const b: Responsiveness[] = [];
  for (let i = 0; i < repeat; i++) {
    if (i % 2 === 0) {
      a.push(await measure(whole));
      b.push(await measure(sliced));
    } else {
      b.push(await measure(sliced));
      a.push(await measure(whole));
    }
  }
  return { whole: median(a), sliced: median(b) };
}

console.log(`median of ${repeat} run(s) each; ${sliceMs} ms slices; 10 ms ticker and delay resolution`);
const input = benchmarkInput(pods);
const solves = await compare(
  () => solve(input),
  () => solveInSlices(input, slices()),
);
console.log(line(`solve, ${pods} pods, unsliced`, solves.whole));
console.log(line(`solve, ${pods} pods, sliced`, solves.sliced, solves.whole));

const snapshot = consolidationSnapshot();
const passes = await compare(
  () => computeDisruption(snapshot, T0),
  () => computeDisruptionInSlices(snapshot, T0, slices()),
);
console.log(line(`disruption pass, ${nodes} nodes, unsliced`, passes.whole));
console.log(line(`disruption pass, ${nodes} nodes, sliced`, passes.sliced, passes.whole));
