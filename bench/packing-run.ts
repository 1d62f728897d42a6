// The packing part of `bench:schedule`: nodewright's decision and a first-fit-decreasing baseline,
// each as a ratio to the exact optimum of the same workload (see packing.ts).
import { performance } from 'node:perf_hooks';
import loadHighs from 'highs';
import { solve } from '../packages/core/dist/scheduling/index.js';
import { Xorshift32 } from './calibration.ts';
import { Seed } from './karpenter-benchmark.ts';
import {
  binsOf,
  firstFitDecreasingPrice,
  type Highs,
  onDemandNodePool,
  optimumPrice,
  packingCatalog,
  packingWorkload,
} from './packing.ts';

/** One workload's prices per hour. */
export interface PackingCase {
  readonly pods: number;
  readonly shapes: number;
  readonly optimum: number;
  readonly proven: boolean;
  readonly nodewright: number;
  /** nodewright without its re-pack: Karpenter's own placements. */
  readonly greedy: number;
  readonly firstFit: number;
  readonly solveMs: number;
}

/** Solves `count` seeded workloads three ways and exactly; HiGHS gets `seconds` per workload. */
export async function measurePacking(
  count: number,
  seconds: number,
  progress: (text: string) => void,
): Promise<PackingCase[]> {
  const highs = await loadHighsModule();
  const types = packingCatalog();
  const bins = binsOf(types);
  const rng = new Xorshift32(Seed);
  const cases: PackingCase[] = [];
  for (let i = 0; i < count; i++) {
    const { pods, shapes } = packingWorkload(rng, i);
    const input = (repack: boolean) => ({
      pods,
      existing: [],
      daemonSets: [],
      nodePools: [onDemandNodePool()],
      instanceTypes: new Map([['default', types]]),
      options: { repack },
    });
    const start = performance.now();
    const result = solve(input(true));
    const solveMs = performance.now() - start;
    if (result.unschedulable.length > 0) throw new Error(`workload ${i}: ${result.unschedulable[0]!.reason}`);
    const price = (r: typeof result) => r.newClaims.reduce((s, c) => s + c.price, 0);
    const nodewright = price(result);
    const greedy = price(solve(input(false)));
    const firstFit = firstFitDecreasingPrice(shapes, bins);
    const { price: optimum, proven } = optimumPrice(
      highs,
      shapes,
      bins,
      Math.min(nodewright, greedy, firstFit),
      seconds,
    );
    cases.push({
      pods: pods.length,
      shapes: shapes.length,
      optimum,
      proven,
      nodewright,
      greedy,
      firstFit,
      solveMs,
    });
    if ((i + 1) % 10 === 0) progress(`  packing: ${i + 1} of ${count} workloads solved`);
  }
  return cases;
}

/**
 * highs-js's loader. Its types describe a CommonJS module (so TypeScript sees the default import
 * as the whole module) while Node loads its ES module, whose default export is the loader itself.
 */
async function loadHighsModule(): Promise<Highs> {
  const loader = ((loadHighs as { default?: unknown }).default ?? loadHighs) as () => Promise<Highs>;
  return loader();
}

function stats(ratios: readonly number[]) {
  return {
    mean: ratios.reduce((s, r) => s + r, 0) / ratios.length,
    max: Math.max(...ratios),
  };
}

/** The lines `bench:schedule` prints for the packing cases. */
export function packingReport(cases: readonly PackingCase[]): string[] {
  const row = (label: string, of: (c: PackingCase) => number) => {
    const r = stats(cases.map((c) => of(c) / c.optimum));
    const worse = cases.filter((c) => of(c) > c.firstFit * (1 + 1e-9)).length;
    return `${label.padEnd(34)} ${r.mean.toFixed(4).padStart(8)} ${r.max.toFixed(4).padStart(8)} ${String(worse).padStart(12)}`;
  };
  const proven = cases.filter((c) => c.proven).length;
  const pods = cases.map((c) => c.pods);
  const ms = stats(cases.map((c) => c.solveMs));
  return [
    `packing: ${cases.length} generic workloads (${Math.min(...pods)}-${Math.max(...pods)} pods, c6i/m6i/r6i large-32xlarge on-demand us-east-1), optimum by HiGHS (${proven} proven optimal)`,
    `${'decision price / optimum'.padEnd(34)} ${'mean'.padStart(8)} ${'max'.padStart(8)} ${'> first-fit'.padStart(12)}`,
    row('nodewright (solve)', (c) => c.nodewright),
    row('nodewright without re-pack', (c) => c.greedy),
    row('first-fit decreasing (Karpenter)', (c) => c.firstFit),
    `nodewright solve: mean ${ms.mean.toFixed(1)} ms, max ${ms.max.toFixed(1)} ms per workload`,
  ];
}
