import { describe, expect, it } from 'vitest';
import { checkSolution } from '../checker/check-solution.js';
import { formatResourceList } from '../resources/resource-list.js';
import { solve } from './solve.js';
import { daemonSet, instanceType, nodePool, pod, pods, solverInput, summarize } from './testing/index.js';
import type { SolverInput } from './types.js';

function run(input: SolverInput) {
  const result = solve(input);
  expect(checkSolution(input, result)).toEqual([]);
  return result;
}

describe('solve: requests and instance selection', () => {
  it('puts a small pod on a new claim listing every type that fits, cheapest first', () => {
    const r = run(solverInput({ pods: [pod('web', { cpu: '1', memory: '1Gi' })] }));
    expect(summarize(r).claims).toEqual([
      {
        nodePool: 'default',
        types: ['small', 'medium', 'large'],
        pods: ['web'],
        zone: undefined,
        price: 0.07,
      },
    ]);
    const claim = r.newClaims[0]!;
    expect(formatResourceList(claim.requests)).toEqual({ cpu: '1', memory: '1Gi', pods: '1' });
    expect(claim.requirements.get('karpenter.sh/nodepool')?.describe()).toBe('In [default]');
    expect(claim.requirements.get('node.kubernetes.io/instance-type')?.describe()).toBe(
      'In [large, medium, small]',
    );
    expect(claim.requirements.get('karpenter.sh/capacity-type')?.describe()).toBe('In [on-demand, spot]');
  });

  it('packs pods onto one claim while a candidate type still has room, narrowing the types', () => {
    const r = run(
      solverInput({ pods: pods('p', 3, { cpu: '1500m', memory: '1Gi' }), options: { repack: false } }),
    );
    expect(summarize(r).claims).toEqual([
      { nodePool: 'default', types: ['large'], pods: ['p-0', 'p-1', 'p-2'], zone: undefined, price: 0.56 },
    ]);
    expect(formatResourceList(r.newClaims[0]!.requests)).toEqual({ cpu: '4500m', memory: '3Gi', pods: '3' });
  });

  it('opens a second claim once the largest type is full', () => {
    const r = run(solverInput({ pods: pods('p', 5, { cpu: '7', memory: '1Gi' }) }));
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['p-0', 'p-1'], ['p-2', 'p-3'], ['p-4']]);
    expect(summarize(r).claims.map((c) => c.types)).toEqual([['large'], ['large'], ['large']]);
  });

  it('tries earlier claims fewest pods first', () => {
    // p-big fills a claim alone; the small pods then go to whichever claim has fewer pods.
    const input = solverInput({
      pods: [pod('a', { cpu: '9' }), pod('b', { cpu: '9' }), pod('c', { cpu: '1' }), pod('d', { cpu: '1' })],
    });
    const r = run(input);
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([
      ['a', 'c'],
      ['b', 'd'],
    ]);
  });

  it('sorts pods by cpu, then memory, descending, then creation time', () => {
    const input = solverInput({
      pods: [
        pod('late', { cpu: '1', memory: '1Gi', created: '2024-01-02T00:00:00Z' }),
        pod('mem', { cpu: '1', memory: '2Gi' }),
        pod('early', { cpu: '1', memory: '1Gi', created: '2024-01-01T00:00:00Z' }),
        pod('cpu', { cpu: '2', memory: '1Gi' }),
      ],
      types: [instanceType('one', { cpu: '8', memory: '32Gi', pods: '1' })],
    });
    const r = run(input);
    expect(summarize(r).claims.map((c) => c.pods[0])).toEqual(['cpu', 'mem', 'early', 'late']);
  });

  it('reports a pod bigger than every type with the largest offer', () => {
    const r = run(solverInput({ pods: [pod('huge', { cpu: '32' })] }));
    expect(summarize(r).unschedulable).toEqual({
      huge: 'NodePool default: no instance type has 32 cpu (largest offers 16)',
    });
    expect(r.newClaims).toEqual([]);
  });

  it('counts the pods resource: one per pod', () => {
    const input = solverInput({
      pods: pods('p', 3, { cpu: '100m', memory: '100Mi' }),
      types: [instanceType('tiny', { cpu: '4', memory: '4Gi', pods: '2', price: 0.1 })],
    });
    const r = run(input);
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['p-0', 'p-1'], ['p-2']]);
  });

  it('takes the larger of the init phase and the app containers, with sidecars on both sides', () => {
    const withInit = pod('init', {
      spec: {
        containers: [{ name: 'app', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
        initContainers: [
          {
            name: 'sidecar',
            restartPolicy: 'Always',
            resources: { requests: { cpu: '500m', memory: '512Mi' } },
          },
          { name: 'migrate', resources: { requests: { cpu: '3', memory: '256Mi' } } },
        ],
      },
    });
    const r = run(solverInput({ pods: [withInit] }));
    // init peak 3 + 0.5 sidecar = 3.5 cpu; app side 1 + 0.5 = 1.5 cpu, memory 1.5Gi.
    expect(formatResourceList(r.newClaims[0]!.requests)).toEqual({
      cpu: '3500m',
      memory: '1536Mi',
      pods: '1',
    });
    expect(r.newClaims[0]!.instanceTypes.map((t) => t.name)).toEqual(['medium', 'large']);
  });

  it('adds pod overhead and honours pod-level requests', () => {
    const p = pod('p', {
      spec: {
        containers: [{ name: 'app', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
        overhead: { cpu: '250m' },
        resources: { requests: { cpu: '3' } },
      },
    });
    const r = run(solverInput({ pods: [p] }));
    expect(formatResourceList(r.newClaims[0]!.requests)).toEqual({ cpu: '3250m', memory: '1Gi', pods: '1' });
  });

  it('schedules extended resources (GPUs) only onto types that have them', () => {
    const types = [
      instanceType('cpu-only', { cpu: '8', memory: '32Gi', price: 0.3 }),
      instanceType('gpu', { cpu: '8', memory: '32Gi', price: 2, extra: { 'nvidia.com/gpu': '1' } }),
    ];
    const gpuPod = pod('train', { requests: { cpu: '1', 'nvidia.com/gpu': '1' } });
    const r = run(solverInput({ pods: [gpuPod, pod('web')], types }));
    expect(summarize(r).claims).toEqual([
      { nodePool: 'default', types: ['gpu'], pods: ['web', 'train'], zone: undefined, price: 1.4 },
    ]);
    const tooMany = pod('greedy', { requests: { 'nvidia.com/gpu': '2' } });
    const r2 = run(solverInput({ pods: [tooMany], types }));
    expect(summarize(r2).unschedulable.greedy).toBe(
      'NodePool default: no instance type has 2 nvidia.com/gpu (largest offers 1)',
    );
  });

  it('keeps at most maxInstanceTypes types per claim, cheapest first', () => {
    const types = Array.from({ length: 8 }, (_, i) =>
      instanceType(`t${i}`, { cpu: '8', memory: '32Gi', price: 1 + (7 - i) / 10 }),
    );
    const r = run(solverInput({ pods: [pod('p')], types, options: { maxInstanceTypes: 3 } }));
    expect(r.newClaims[0]!.instanceTypes.map((t) => t.name)).toEqual(['t7', 't6', 't5']);
    expect(r.newClaims[0]!.requirements.get('node.kubernetes.io/instance-type')?.describe()).toBe(
      'In [t5, t6, t7]',
    );
  });

  it('skips types whose offerings are all unavailable and prices the available ones', () => {
    const types = [
      instanceType('cheap', {
        cpu: '4',
        memory: '16Gi',
        price: 0.1,
        unavailable: [
          'spot/zone-a',
          'spot/zone-b',
          'spot/zone-c',
          'on-demand/zone-a',
          'on-demand/zone-b',
          'on-demand/zone-c',
        ],
      }),
      instanceType('pricier', {
        cpu: '4',
        memory: '16Gi',
        price: 0.2,
        unavailable: ['spot/zone-a', 'spot/zone-b', 'spot/zone-c'],
      }),
    ];
    const r = run(solverInput({ pods: [pod('p')], types }));
    expect(summarize(r).claims).toEqual([
      { nodePool: 'default', types: ['pricier'], pods: ['p'], zone: undefined, price: 0.2 },
    ]);
    expect(r.newClaims[0]!.requirements.get('karpenter.sh/capacity-type')?.describe()).toBe('In [on-demand]');
  });
});

describe('solve: DaemonSet overhead', () => {
  it('reserves room for DaemonSets that would run on the NodePool', () => {
    const input = solverInput({
      pods: [pod('p', { cpu: '1500m' })],
      daemonSets: [daemonSet('agent', { cpu: '1', memory: '1Gi' })],
    });
    const r = run(input);
    expect(summarize(r).claims[0]!.types).toEqual(['medium', 'large']);
    expect(formatResourceList(r.newClaims[0]!.requests)).toEqual({ cpu: '2500m', memory: '2Gi', pods: '2' });
  });

  it('ignores DaemonSets whose node selector, affinity or tolerations keep them off', () => {
    const arm = daemonSet('arm-agent', {
      cpu: '1',
      spec: { nodeSelector: { 'kubernetes.io/arch': 'arm64' } },
    });
    const needsToleration = daemonSet('gpu-agent', { cpu: '1' });
    const pool = nodePool('default', { taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }] });
    const p = pod('p', { cpu: '1500m', spec: { tolerations: [{ key: 'dedicated', operator: 'Exists' }] } });
    const r = run(solverInput({ pods: [p], nodePools: [pool], daemonSets: [arm, needsToleration] }));
    expect(summarize(r).claims[0]!.types).toEqual(['small', 'medium', 'large']);
    expect(formatResourceList(r.newClaims[0]!.requests)).toEqual({ cpu: '1500m', memory: '1Gi', pods: '1' });
  });

  it('counts a DaemonSet only on the instance types it selects', () => {
    const types = [
      instanceType('plain', { cpu: '2', memory: '8Gi', price: 0.1 }),
      instanceType('gpu', { cpu: '2', memory: '8Gi', price: 0.5, labels: { 'example.com/gpu': 'true' } }),
    ];
    const gpuAgent = daemonSet('gpu-agent', {
      cpu: '1',
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'example.com/gpu', operator: 'In', values: ['true'] }] },
              ],
            },
          },
        },
      },
    });
    const r = run(solverInput({ pods: [pod('p', { cpu: '1500m' })], types, daemonSets: [gpuAgent] }));
    expect(summarize(r).claims[0]!.types).toEqual(['plain']);
  });
});
