import { describe, expect, it } from 'vitest';
import { checkSolution } from '../checker/check-solution.js';
import { solve } from './solve.js';
import {
  benchmarkInput,
  instanceType,
  nodePool,
  pod,
  pods,
  solverInput,
  summarize,
} from './testing/index.js';
import type { SolverInput } from './types.js';

function run(input: SolverInput) {
  const result = solve(input);
  expect(checkSolution(input, result)).toEqual([]);
  return result;
}

const total = (r: ReturnType<typeof solve>) =>
  Math.round(r.newClaims.reduce((a, c) => a + c.price, 0) * 1e6) / 1e6;

describe('solve: re-packing unconstrained pods', () => {
  it('replaces one big node by smaller ones when they cost less', () => {
    const input = solverInput({ pods: pods('p', 3, { cpu: '1500m', memory: '1Gi' }) });
    const greedy = run({ ...input, options: { repack: false } });
    expect(total(greedy)).toBe(0.56);
    const r = run(input);
    expect(summarize(r).claims).toEqual([
      { nodePool: 'default', types: ['medium', 'large'], pods: ['p-0', 'p-1'], zone: undefined, price: 0.14 },
      {
        nodePool: 'default',
        types: ['small', 'medium', 'large'],
        pods: ['p-2'],
        zone: undefined,
        price: 0.07,
      },
    ]);
  });

  it('balances cpu-heavy and memory-heavy pods across nodes', () => {
    const types = [8, 16].map((cpu) =>
      instanceType(`c${cpu}`, { cpu: String(cpu), memory: `${cpu * 2}Gi`, price: cpu * 0.3 }),
    );
    const cpuHeavy = pods('cpu', 8, { cpu: '3', memory: '1Gi' });
    const memHeavy = pods('mem', 8, { cpu: '1', memory: '7Gi' });
    const input = solverInput({ pods: [...cpuHeavy, ...memHeavy], types });
    const greedy = run({ ...input, options: { repack: false } });
    const r = run(input);
    // 32 cpu and 64Gi in all: two balanced 16-cpu nodes, not a cpu-full, a memory-full and a third.
    expect(greedy.newClaims).toHaveLength(3);
    expect(total(r)).toBeLessThan(total(greedy));
    expect(summarize(r).claims.map((c) => c.types[0])).toEqual(['c16', 'c16']);
  });

  describe('on AWS-like c, m and r families (2, 4 and 8 GiB per cpu, prices linear in size)', () => {
    const types = [2, 4, 8, 16, 32].flatMap((cpu) =>
      (
        [
          ['c', 2, 0.0425],
          ['m', 4, 0.048],
          ['r', 8, 0.063],
        ] as const
      ).map(([family, gi, perCpu]) =>
        instanceType(`${family}${cpu}`, {
          cpu: String(cpu),
          memory: `${cpu * gi}Gi`,
          price: cpu * perCpu,
          capacityTypes: ['on-demand'],
        }),
      ),
    );

    it('never opens a node for a type that holds none of the pods left', () => {
      // 18 cpu, 33 GiB. The best share per price of what is left was once a type too small for
      // any remaining pod, so the whole re-pack gave up and kept the greedy's c32 (1.36).
      const input = solverInput({
        pods: [...pods('a', 5, { cpu: '3', memory: '3Gi' }), ...pods('b', 3, { cpu: '1', memory: '6Gi' })],
        types,
      });
      expect(total(run({ ...input, options: { repack: false } }))).toBe(1.36);
      const r = run(input);
      expect(total(r)).toBe(0.806);
      expect(summarize(r).claims.map((c) => c.types[0])).toEqual(['c16', 'r2']);
    });

    it('tries other first nodes and merges small nodes left over into one that costs no more', () => {
      // One fill used to end in an m16, a c4 and two c2 (1.108); another first node and merging
      // what is left give an m8 and a c16.
      const input = solverInput({
        pods: [
          ...pods('tiny', 3, { cpu: '100m', memory: '614Mi' }),
          ...pods('web', 2, { cpu: '3', memory: '6Gi' }),
          ...pods('cache', 2, { cpu: '3', memory: '9Gi' }),
          ...pods('api', 3, { cpu: '2', memory: '2Gi' }),
          ...pods('db', 2, { cpu: '2', memory: '12Gi' }),
        ],
        types,
      });
      const r = run(input);
      expect(total(r)).toBe(1.064);
      expect(summarize(r).claims.map((c) => c.types[0])).toEqual(['m8', 'c16']);
    });
  });

  it('leaves pods with topology constraints, or selected by one, where the greedy put them', () => {
    const labels = { app: 'web' };
    const spread = {
      labels,
      spec: {
        topologySpreadConstraints: [
          {
            maxSkew: 3,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: labels },
          },
        ],
      },
    };
    const input = solverInput({ pods: pods('p', 3, { cpu: '1500m', ...spread }) });
    expect(summarize(run(input))).toEqual(summarize(run({ ...input, options: { repack: false } })));
    const selected = solverInput({
      pods: [
        ...pods('p', 3, { cpu: '1500m', labels }),
        pod('s', { cpu: '100m', memory: '100Mi', ...spread }),
      ],
    });
    expect(summarize(run(selected))).toEqual(summarize(run({ ...selected, options: { repack: false } })));
  });

  it('keeps within NodePool limits', () => {
    const pool = nodePool('default', { limits: { cpu: '5' } });
    const r = run(solverInput({ pods: pods('p', 3, { cpu: '1500m', memory: '1Gi' }), nodePools: [pool] }));
    expect(summarize(r).claims.map((c) => c.types[0])).toEqual(['medium']);
    expect(Object.keys(summarize(r).unschedulable)).toEqual(['p-2']);
  });

  it('brings the benchmark generic pods to within 2% of the lower bound', () => {
    const input = benchmarkInput(5000);
    const generic = { ...input, pods: input.pods.filter((p) => p.metadata.name!.startsWith('generic')) };
    const r = run(generic);
    let cpu = 0;
    let mem = 0;
    for (const p of generic.pods) {
      const q = p.spec.containers[0]!.resources!.requests!;
      cpu += Number.parseFloat(q.cpu!) / (q.cpu!.endsWith('m') ? 1000 : 1);
      mem += Number.parseFloat(q.memory!) / 1024;
    }
    const lowerBound = 0.3 * Math.max(cpu, mem / 2);
    expect(total(r) / lowerBound).toBeLessThan(1.02);
    expect(total(run({ ...generic, options: { repack: false } })) / lowerBound).toBeGreaterThan(1.05);
  });
});
