import { describe, expect, it } from 'vitest';
import { nodeClaimSchema } from '../../apis/v1/nodeclaim.js';
import { checkSolution } from '../checker/check-solution.js';
import { parseResourceList } from '../resources/resource-list.js';
import { solve } from './solve.js';
import {
  boundPod,
  daemonSet,
  existing,
  instanceType,
  node,
  nodePool,
  pod,
  pods,
  solverInput,
  summarize,
} from './testing/index.js';
import type { ExistingCapacity, SolverInput } from './types.js';

function run(input: SolverInput) {
  const result = solve(input);
  expect(checkSolution(input, result)).toEqual([]);
  return result;
}

const hostPort = (port: number) => ({
  spec: {
    containers: [
      {
        name: 'app',
        ports: [{ containerPort: port, hostPort: port }],
        resources: { requests: { cpu: '100m' } },
      },
    ],
  },
});

function inFlight(name: string, allocatable: Record<string, string>, zone = 'zone-b'): ExistingCapacity {
  const claim = nodeClaimSchema.parse({
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name, labels: { 'karpenter.sh/nodepool': 'default' } },
    spec: {
      nodeClassRef: { group: 'karpenter.test.sh', kind: 'TestNodeClass', name: 'default' },
      requirements: [
        { key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] },
        { key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] },
      ],
      startupTaints: [{ key: 'example.com/booting', effect: 'NoSchedule' }],
    },
    status: { allocatable },
  });
  return { name, nodeClaim: claim, pods: [], initialized: false };
}

describe('solve: existing and in-flight capacity', () => {
  it('uses room on existing nodes before launching anything', () => {
    const n = node('n1', { allocatable: { cpu: '4', memory: '16Gi', pods: '110' } });
    const input = solverInput({
      pods: pods('p', 5, { cpu: '1' }),
      existing: [existing(n, [boundPod('old', 'n1', { cpu: '1' })])],
    });
    const r = run(input);
    expect(summarize(r).existing).toEqual({ n1: ['p-0', 'p-1', 'p-2'] });
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['p-3', 'p-4']]);
  });

  it('tries initialized nodes first, then by name', () => {
    const a = existing(node('a'), [], { initialized: false });
    const b = existing(node('b'));
    const c = existing(node('c'));
    const r = run(solverInput({ pods: [pod('p')], existing: [c, a, b] }));
    expect(summarize(r).existing).toEqual({ b: ['p'] });
  });

  it('respects node taints and labels', () => {
    const tainted = existing(
      node('t', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }),
    );
    const labelled = existing(node('l', { labels: { 'topology.kubernetes.io/zone': 'zone-c' } }));
    const p = pod('p', { nodeSelector: { 'topology.kubernetes.io/zone': 'zone-c' } });
    const r = run(solverInput({ pods: [p], existing: [tainted, labelled] }));
    expect(summarize(r).existing).toEqual({ l: ['p'] });
  });

  it('skips nodes being deleted and cordoned nodes, but counts their pods for topology', () => {
    const deleting = existing(node('gone'), [boundPod('w-old', 'gone', { labels: { app: 'web' } })], {
      markedForDeletion: true,
    });
    const cordoned = existing(node('cordoned', { unschedulable: true }));
    const anti = {
      labels: { app: 'web' },
      spec: {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'topology.kubernetes.io/zone' },
            ],
          },
        },
      },
    };
    const r = run(solverInput({ pods: [pod('w', anti)], existing: [deleting, cordoned] }));
    expect(r.existing).toEqual([]);
    expect(summarize(r).claims[0]!.zone).toBe('In [zone-b, zone-c]');
  });

  it('fills in-flight NodeClaims, ignoring their startup taints, and reserves room for DaemonSets not there yet', () => {
    const claim = inFlight('default-abc', { cpu: '2', memory: '8Gi', pods: '110' });
    const input = solverInput({
      pods: pods('p', 2, { cpu: '800m', memory: '1Gi' }),
      existing: [claim],
      daemonSets: [daemonSet('agent', { cpu: '500m', memory: '128Mi' })],
    });
    const r = run(input);
    // 2 cpu - 500m for the agent leaves room for one 800m pod.
    expect(summarize(r).existing).toEqual({ 'default-abc': ['p-0'] });
    expect(r.newClaims.map((c) => c.pods.map((p) => p.metadata.name))).toEqual([['p-1']]);
  });

  it('ignores startup and booting taints on nodes that are not initialized yet', () => {
    const claim = inFlight('default-xyz', { cpu: '2', memory: '8Gi', pods: '110' });
    const booting = node('default-xyz', {
      allocatable: { cpu: '2', memory: '8Gi', pods: '110' },
      taints: [
        { key: 'example.com/booting', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
      ],
    });
    const r = run(solverInput({ pods: [pod('p')], existing: [{ ...claim, node: booting }] }));
    expect(summarize(r).existing).toEqual({ 'default-xyz': ['p'] });
    const initialized = run(
      solverInput({ pods: [pod('p')], existing: [{ ...claim, node: booting, initialized: true }] }),
    );
    expect(initialized.existing).toEqual([]);
  });

  it('does not reserve room for DaemonSets already running there', () => {
    const n = node('n1', { allocatable: { cpu: '2', memory: '8Gi', pods: '110' } });
    const agentPod = boundPod('agent-x', 'n1', { namespace: 'kube-system', cpu: '500m', memory: '128Mi' });
    const owned = {
      ...agentPod,
      metadata: {
        ...agentPod.metadata,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent' }],
      },
    };
    const input = solverInput({
      pods: [pod('p', { cpu: '1500m' })],
      existing: [existing(n, [owned])],
      daemonSets: [daemonSet('agent', { cpu: '500m' })],
    });
    expect(summarize(run(input)).existing).toEqual({ n1: ['p'] });
  });

  it('explains why existing nodes refused a pod', () => {
    const full = existing(node('full', { allocatable: { cpu: '1', memory: '16Gi', pods: '110' } }));
    const tainted = existing(node('tainted', { taints: [{ key: 'x', effect: 'NoSchedule' }] }));
    const r = run(
      solverInput({
        pods: [pod('p', { cpu: '2', nodeSelector: { 'karpenter.sh/capacity-type': 'reserved' } })],
        existing: [full, tainted],
      }),
    );
    expect(summarize(r).unschedulable.p).toBe(
      'NodePool default: requirement karpenter.sh/capacity-type In [reserved] matches no offering; existing nodes: full: not enough cpu, tainted: taint not tolerated',
    );
  });
});

describe('solve: host ports', () => {
  it('never puts two pods with the same host port on one node', () => {
    const r = run(solverInput({ pods: pods('p', 3, hostPort(80)) }));
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['p-0'], ['p-1'], ['p-2']]);
  });

  it('lets different ports and protocols share a node', () => {
    const udp = {
      spec: { containers: [{ name: 'app', ports: [{ containerPort: 80, hostPort: 80, protocol: 'UDP' }] }] },
    };
    const r = run(solverInput({ pods: [pod('a', hostPort(80)), pod('b', hostPort(81)), pod('c', udp)] }));
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['a', 'b', 'c']]);
  });

  it('sees ports taken by pods already on a node', () => {
    const n = node('n1');
    const r = run(
      solverInput({
        pods: [pod('p', hostPort(80))],
        existing: [existing(n, [boundPod('old', 'n1', hostPort(80))])],
      }),
    );
    expect(r.existing).toEqual([]);
    expect(r.newClaims).toHaveLength(1);
  });

  it('sees ports DaemonSets take on new nodes', () => {
    const ds = daemonSet('proxy', {
      spec: { containers: [{ name: 'p', ports: [{ containerPort: 80, hostPort: 80 }] }] },
    });
    const r = run(solverInput({ pods: [pod('p', hostPort(80))], daemonSets: [ds] }));
    expect(summarize(r).unschedulable.p).toBe('NodePool default: host port 80/TCP is taken by a DaemonSet');
  });
});

describe('solve: NodePool limits', () => {
  it('stops at the limit, counting each claim at its largest candidate type', () => {
    const pool = nodePool('default', { limits: { cpu: '20' } });
    const r = run(solverInput({ pods: pods('p', 6, { cpu: '4', memory: '1Gi' }), nodePools: [pool] }));
    expect(summarize(r).claims.map((c) => [c.types, c.pods.length])).toEqual([
      [['large'], 4],
      [['medium'], 1],
    ]);
    expect(summarize(r).unschedulable['p-5']).toBe('exceeds NodePool default limits: cpu 20 (used 20)');
  });

  it('subtracts existing usage', () => {
    const pool = nodePool('default', { limits: { cpu: '20' } });
    const usage = new Map([['default', parseResourceList({ cpu: '17' })]]);
    const r = run(solverInput({ pods: [pod('p')], nodePools: [pool], extra: { nodePoolUsage: usage } }));
    expect(summarize(r).claims[0]!.types).toEqual(['small']);
  });

  it('limits the number of nodes', () => {
    const pool = nodePool('default', { limits: { nodes: '2' } });
    const anti = {
      labels: { app: 'w' },
      spec: {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'w' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        },
      },
    };
    const r = run(solverInput({ pods: pods('w', 3, anti), nodePools: [pool] }));
    expect(r.newClaims).toHaveLength(2);
    expect(summarize(r).unschedulable['w-2']).toBe('exceeds NodePool default limits: nodes 2 (used 2)');
  });

  it('falls over to the next NodePool when one is at its limit', () => {
    const capped = nodePool('capped', { weight: 10, limits: { memory: '1Gi' } });
    const open = nodePool('open', { weight: 1 });
    const r = run(solverInput({ pods: [pod('p')], nodePools: [capped, open] }));
    expect(summarize(r).claims[0]!.nodePool).toBe('open');
  });
});

describe('solve: minValues', () => {
  const flexible = (policy?: 'Strict' | 'BestEffort') => ({
    nodePools: [
      nodePool('default', {
        requirements: [
          {
            key: 'node.kubernetes.io/instance-type',
            operator: 'In',
            values: ['small', 'medium', 'large'],
            minValues: 2,
          },
        ],
      }),
    ],
    ...(policy === undefined ? {} : { options: { minValuesPolicy: policy } }),
  });

  it('keeps claims flexible enough', () => {
    const r = run(solverInput({ pods: [pod('p', { cpu: '3' })], ...flexible() }));
    expect(summarize(r).claims[0]!.types).toEqual(['medium', 'large']);
  });

  it('refuses a pod that only one type can hold (Strict)', () => {
    const r = run(solverInput({ pods: [pod('p', { cpu: '10' })], ...flexible() }));
    expect(summarize(r).unschedulable.p).toBe(
      'NodePool default: minValues not met: node.kubernetes.io/instance-type needs 2 distinct values, the instance types that fit offer 1',
    );
  });

  it('does not add a pod that would leave a claim too few types (Strict)', () => {
    const r = run(solverInput({ pods: [pod('a', { cpu: '3' }), pod('b', { cpu: '3' })], ...flexible() }));
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['a'], ['b']]);
  });

  it('relaxes with BestEffort', () => {
    const r = run(solverInput({ pods: [pod('p', { cpu: '10' })], ...flexible('BestEffort') }));
    expect(summarize(r).claims[0]!.types).toEqual(['large']);
  });
});

describe('solve: determinism and purity', () => {
  it('gives identical results for identical input and does not change the input', () => {
    const input = solverInput({
      pods: [
        ...pods('a', 4, { cpu: '1500m' }),
        ...pods('b', 3, {
          cpu: '500m',
          labels: { app: 'b' },
          spec: {
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'topology.kubernetes.io/zone',
                whenUnsatisfiable: 'DoNotSchedule',
                labelSelector: { matchLabels: { app: 'b' } },
              },
            ],
          },
        }),
      ],
      types: [
        instanceType('x', { cpu: '4', memory: '8Gi' }),
        instanceType('y', { cpu: '8', memory: '16Gi', price: 1.5 }),
      ],
    });
    const before = JSON.stringify(input.pods);
    const a = JSON.stringify(summarize(solve(input)));
    const b = JSON.stringify(summarize(solve(input)));
    expect(a).toBe(b);
    expect(JSON.stringify(input.pods)).toBe(before);
  });
});
