import { describe, expect, it } from 'vitest';
import { checkSolution } from '../checker/check-solution.js';
import { solve } from './solve.js';
import { instanceType, nodePool, pod, solverInput, summarize } from './testing/index.js';
import type { SolverInput } from './types.js';

function run(input: SolverInput) {
  const result = solve(input);
  expect(checkSolution(input, result)).toEqual([]);
  return result;
}

const zoneTerm = (...zones: string[]) => ({
  matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: zones }],
});

describe('solve: node selectors and node affinity', () => {
  it('narrows the claim to the zone a nodeSelector asks for', () => {
    const r = run(
      solverInput({ pods: [pod('p', { nodeSelector: { 'topology.kubernetes.io/zone': 'zone-b' } })] }),
    );
    expect(summarize(r).claims[0]!.zone).toBe('In [zone-b]');
  });

  it('keeps pods with disjoint selectors on separate claims', () => {
    const r = run(
      solverInput({
        pods: [
          pod('a', { nodeSelector: { 'topology.kubernetes.io/zone': 'zone-a' } }),
          pod('b', { nodeSelector: { 'topology.kubernetes.io/zone': 'zone-b' } }),
        ],
      }),
    );
    expect(summarize(r).claims.map((c) => [c.pods, c.zone])).toEqual([
      [['a'], 'In [zone-a]'],
      [['b'], 'In [zone-b]'],
    ]);
  });

  it('selects instance types by well-known labels the NodePool does not constrain', () => {
    const types = [
      instanceType('x86', { cpu: '4', memory: '16Gi', price: 0.1 }),
      instanceType('graviton', { cpu: '4', memory: '16Gi', price: 0.2, arch: 'arm64' }),
    ];
    const r = run(
      solverInput({ pods: [pod('arm', { nodeSelector: { 'kubernetes.io/arch': 'arm64' } })], types }),
    );
    expect(summarize(r).claims[0]!.types).toEqual(['graviton']);
    expect(r.newClaims[0]!.requirements.get('kubernetes.io/arch')?.describe()).toBe('In [arm64]');
  });

  it('refuses labels the NodePool does not define, naming them', () => {
    const r = run(solverInput({ pods: [pod('p', { nodeSelector: { team: 'payments' } })] }));
    expect(summarize(r).unschedulable.p).toBe(
      "NodePool default: requires team In [payments], a label the NodePool's nodes do not have",
    );
  });

  it('matches NodePool template labels', () => {
    const pool = nodePool('payments', { labels: { team: 'payments' } });
    const r = run(
      solverInput({ pods: [pod('p', { nodeSelector: { team: 'payments' } })], nodePools: [pool] }),
    );
    expect(summarize(r).claims[0]!.nodePool).toBe('payments');
  });

  it('states the conflict when the NodePool allows other values', () => {
    const pool = nodePool('default', {
      requirements: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] }],
    });
    const r = run(
      solverInput({
        pods: [pod('p', { nodeSelector: { 'topology.kubernetes.io/zone': 'zone-b' } })],
        nodePools: [pool],
      }),
    );
    expect(summarize(r).unschedulable.p).toBe(
      'NodePool default: requires topology.kubernetes.io/zone In [zone-b], NodePool allows In [zone-a]',
    );
  });

  it('tries required node affinity terms in order, dropping the first when it cannot be met', () => {
    const p = pod('p', {
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [zoneTerm('zone-x'), zoneTerm('zone-c')],
            },
          },
        },
      },
    });
    const r = run(solverInput({ pods: [p] }));
    expect(summarize(r).claims[0]!.zone).toBe('In [zone-c]');
  });

  it('uses the first term when it can be met', () => {
    const p = pod('p', {
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [zoneTerm('zone-b'), zoneTerm('zone-c')],
            },
          },
        },
      },
    });
    expect(summarize(run(solverInput({ pods: [p] }))).claims[0]!.zone).toBe('In [zone-b]');
  });

  it('treats the heaviest preferred term as required, then relaxes to the next', () => {
    const p = pod('p', {
      spec: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 10, preference: zoneTerm('zone-c') },
              { weight: 50, preference: zoneTerm('zone-x') },
            ],
          },
        },
      },
    });
    expect(summarize(run(solverInput({ pods: [p] }))).claims[0]!.zone).toBe('In [zone-c]');
  });

  it('drops preferences it cannot meet entirely', () => {
    const p = pod('p', {
      spec: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: zoneTerm('zone-x') }],
          },
        },
      },
    });
    expect(summarize(run(solverInput({ pods: [p] }))).claims[0]!.zone).toBeUndefined();
  });

  it('ignores preferences up front with ignorePreferences', () => {
    const p = pod('p', {
      spec: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: zoneTerm('zone-b') }],
          },
        },
      },
    });
    const r = run(solverInput({ pods: [p], options: { ignorePreferences: true } }));
    expect(summarize(r).claims[0]!.zone).toBeUndefined();
  });

  it('supports Gt/Lt on numeric labels', () => {
    const types = [
      instanceType('gen5', {
        cpu: '4',
        memory: '16Gi',
        price: 0.1,
        labels: { 'example.com/generation': '5' },
      }),
      instanceType('gen7', {
        cpu: '4',
        memory: '16Gi',
        price: 0.3,
        labels: { 'example.com/generation': '7' },
      }),
    ];
    const pool = nodePool('default', {
      requirements: [{ key: 'example.com/generation', operator: 'Gt', values: ['5'] }],
    });
    const r = run(solverInput({ pods: [pod('p')], types, nodePools: [pool] }));
    expect(summarize(r).claims[0]!.types).toEqual(['gen7']);
  });

  it('reports an offering no type has', () => {
    const r = run(
      solverInput({ pods: [pod('p', { nodeSelector: { 'karpenter.sh/capacity-type': 'reserved' } })] }),
    );
    expect(summarize(r).unschedulable.p).toBe(
      'NodePool default: requirement karpenter.sh/capacity-type In [reserved] matches no offering',
    );
  });

  it('reports unavailable offerings', () => {
    const types = [instanceType('only', { zones: ['zone-a'], unavailable: ['spot/zone-a'] })];
    const r = run(
      solverInput({ pods: [pod('p', { nodeSelector: { 'karpenter.sh/capacity-type': 'spot' } })], types }),
    );
    expect(summarize(r).unschedulable.p).toBe(
      'NodePool default: every offering matching karpenter.sh/capacity-type In [spot] is unavailable',
    );
  });

  it('reports instance type requirements no type meets', () => {
    const r = run(
      solverInput({ pods: [pod('p', { nodeSelector: { 'node.kubernetes.io/instance-type': 'xlarge' } })] }),
    );
    expect(summarize(r).unschedulable.p).toBe(
      'NodePool default: requirement node.kubernetes.io/instance-type In [xlarge] matches no instance type',
    );
  });
});

describe('solve: taints and tolerations', () => {
  const tainted = nodePool('gpu', {
    taints: [{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }],
  });

  it('keeps pods off NodePools whose taints they do not tolerate', () => {
    const r = run(solverInput({ pods: [pod('p')], nodePools: [tainted] }));
    expect(summarize(r).unschedulable.p).toBe(
      'NodePool gpu: taint nvidia.com/gpu=true:NoSchedule not tolerated',
    );
  });

  it('schedules pods that tolerate them (Equal and Exists)', () => {
    const equal = pod('eq', {
      spec: {
        tolerations: [{ key: 'nvidia.com/gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' }],
      },
    });
    const exists = pod('ex', { spec: { tolerations: [{ operator: 'Exists' }] } });
    const r = run(solverInput({ pods: [equal, exists], nodePools: [tainted] }));
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['eq', 'ex']]);
  });

  it('does not let startup taints block pods', () => {
    const pool = nodePool('default', {
      startupTaints: [{ key: 'node.cilium.io/agent-not-ready', effect: 'NoSchedule' }],
    });
    const r = run(solverInput({ pods: [pod('p')], nodePools: [pool] }));
    expect(r.newClaims).toHaveLength(1);
  });

  it('avoids PreferNoSchedule taints while another NodePool can take the pod', () => {
    const soft = nodePool('soft', { weight: 50, taints: [{ key: 'spot-only', effect: 'PreferNoSchedule' }] });
    const plain = nodePool('plain', { weight: 10 });
    const r = run(solverInput({ pods: [pod('p')], nodePools: [soft, plain] }));
    expect(summarize(r).claims[0]!.nodePool).toBe('plain');
  });

  it('tolerates PreferNoSchedule taints as the last relaxation', () => {
    const soft = nodePool('soft', { taints: [{ key: 'spot-only', effect: 'PreferNoSchedule' }] });
    const r = run(solverInput({ pods: [pod('p')], nodePools: [soft] }));
    expect(summarize(r).claims[0]!.nodePool).toBe('soft');
    const strict = solve(
      solverInput({ pods: [pod('p')], nodePools: [soft], options: { toleratePreferNoSchedule: false } }),
    );
    expect(summarize(strict).unschedulable.p).toBe(
      'NodePool soft: taint spot-only:PreferNoSchedule not tolerated',
    );
  });
});

describe('solve: NodePools', () => {
  it('tries NodePools by weight, then name', () => {
    const pools = [
      nodePool('b-low', { weight: 1 }),
      nodePool('a-high', { weight: 90 }),
      nodePool('c-high', { weight: 90 }),
    ];
    const r = run(solverInput({ pods: [pod('p')], nodePools: pools }));
    expect(summarize(r).claims[0]!.nodePool).toBe('a-high');
  });

  it('falls through to the next NodePool when the first cannot take the pod', () => {
    const arm = nodePool('arm', {
      weight: 50,
      requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }],
    });
    const x86 = nodePool('x86', { weight: 10 });
    const r = run(solverInput({ pods: [pod('p')], nodePools: [arm, x86] }));
    expect(summarize(r).claims[0]!.nodePool).toBe('x86');
  });

  it('explains every NodePool that refused a pod, in weight order', () => {
    const gpu = nodePool('gpu', {
      weight: 30,
      taints: [{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }],
    });
    const general = nodePool('default', { weight: 20 });
    const spotOnly = nodePool('spot-only', {
      weight: 10,
      requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }],
    });
    const p = pod('big', { cpu: '200', nodeSelector: { 'karpenter.sh/capacity-type': 'reserved' } });
    const q = pod('wide', { cpu: '200' });
    const r = run(solverInput({ pods: [p, q], nodePools: [gpu, general, spotOnly] }));
    expect(summarize(r).unschedulable).toEqual({
      big:
        'NodePool gpu: taint nvidia.com/gpu=true:NoSchedule not tolerated; ' +
        'NodePool default: requirement karpenter.sh/capacity-type In [reserved] matches no offering; ' +
        'NodePool spot-only: requires karpenter.sh/capacity-type In [reserved], NodePool allows In [spot]',
      wide:
        'NodePool gpu: taint nvidia.com/gpu=true:NoSchedule not tolerated; ' +
        'NodePool default: no instance type has 200 cpu (largest offers 16); ' +
        'NodePool spot-only: no instance type has 200 cpu (largest offers 16)',
    });
  });

  it('reports a NodePool that can launch nothing', () => {
    const pool = nodePool('reserved', {
      requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['reserved'] }],
    });
    const r = run(solverInput({ pods: [pod('p')], nodePools: [pool] }));
    expect(summarize(r).unschedulable.p).toBe(
      'NodePool reserved: launches nothing: requirement karpenter.sh/capacity-type In [reserved] matches no offering',
    );
  });

  it('reports a NodePool without instance types', () => {
    const r = run(solverInput({ pods: [pod('p')], types: new Map() }));
    expect(summarize(r).unschedulable.p).toBe(
      'NodePool default: launches nothing: no instance types are offered',
    );
  });

  it('reports when there is no NodePool', () => {
    const r = run(solverInput({ pods: [pod('p')], nodePools: [] }));
    expect(summarize(r).unschedulable.p).toBe('no NodePool is available to launch a node');
  });
});
