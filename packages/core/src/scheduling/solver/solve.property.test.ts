import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { checkSolution } from '../checker/check-solution.js';
import { solve } from './solve.js';
import { SolverCache } from './solver-cache.js';
import {
  boundPod,
  daemonSet,
  existing,
  instanceType,
  node,
  nodePool,
  pod,
  solverInput,
  summarize,
} from './testing/index.js';
import type { SolverInput } from './types.js';

const ZONES = ['zone-a', 'zone-b', 'zone-c'];
const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';

const subset = <T>(xs: readonly T[]) => fc.subarray([...xs], { minLength: 1 });

const typeArb = fc.record({
  cpu: fc.constantFrom(1, 2, 4, 8, 16),
  memFactor: fc.constantFrom(2, 4, 8),
  pods: fc.constantFrom(4, 16, 110),
  zones: subset(ZONES),
  capacityTypes: subset(['on-demand', 'spot']),
  price: fc.integer({ min: 1, max: 100 }),
  arm: fc.boolean(),
  gpu: fc.boolean(),
  unavailable: fc.subarray(['spot/zone-a', 'on-demand/zone-b', 'spot/zone-c']),
});

const poolArb = fc.record({
  weight: fc.integer({ min: 1, max: 3 }),
  taint: fc.constantFrom(undefined, 'NoSchedule', 'PreferNoSchedule'),
  zones: fc.option(subset(ZONES), { nil: undefined }),
  capacityType: fc.option(fc.constantFrom('spot', 'on-demand'), { nil: undefined }),
  cpuLimit: fc.option(fc.integer({ min: 2, max: 40 }), { nil: undefined }),
  nodeLimit: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
});

const groupArb = fc.record({
  count: fc.integer({ min: 1, max: 6 }),
  cpu: fc.constantFrom('100m', '250m', '500m', '1', '1500m', '3', '6'),
  memory: fc.constantFrom('128Mi', '512Mi', '1Gi', '3Gi', '8Gi'),
  zone: fc.option(fc.constantFrom(...ZONES), { nil: undefined }),
  tolerate: fc.boolean(),
  gpu: fc.boolean(),
  arm: fc.option(fc.boolean(), { nil: undefined }),
  spread: fc.option(
    fc.record({
      key: fc.constantFrom(ZONE, HOST),
      maxSkew: fc.integer({ min: 1, max: 2 }),
      hard: fc.boolean(),
      minDomains: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
    }),
    { nil: undefined },
  ),
  anti: fc.option(fc.record({ key: fc.constantFrom(ZONE, HOST), preferred: fc.boolean() }), {
    nil: undefined,
  }),
  affinity: fc.option(fc.record({ key: fc.constantFrom(ZONE, HOST), other: fc.boolean() }), {
    nil: undefined,
  }),
  hostPort: fc.boolean(),
  preferZone: fc.option(fc.constantFrom(...ZONES), { nil: undefined }),
});

const clusterArb = fc.record({
  types: fc.array(typeArb, { minLength: 1, maxLength: 5 }),
  pools: fc.array(poolArb, { minLength: 1, maxLength: 3 }),
  groups: fc.array(groupArb, { minLength: 1, maxLength: 5 }),
  nodes: fc.array(
    fc.record({
      zone: fc.constantFrom(...ZONES),
      cpu: fc.constantFrom('2', '4'),
      bound: fc.integer({ min: 0, max: 3 }),
      group: fc.nat(4),
    }),
    { maxLength: 2 },
  ),
  daemon: fc.option(fc.constantFrom('100m', '500m'), { nil: undefined }),
  repack: fc.boolean(),
  minValuesPolicy: fc.constantFrom('Strict', 'BestEffort'),
  minValues: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
});

type Cluster = typeof clusterArb extends fc.Arbitrary<infer T> ? T : never;

function build(c: Cluster): SolverInput {
  const types: InstanceType[] = c.types.map((t, i) =>
    instanceType(`t${i}`, {
      cpu: String(t.cpu),
      memory: `${t.cpu * t.memFactor}Gi`,
      pods: String(t.pods),
      zones: t.zones,
      capacityTypes: t.capacityTypes,
      price: t.price / 10,
      arch: t.arm ? 'arm64' : 'amd64',
      ...(t.gpu ? { extra: { 'nvidia.com/gpu': '1' } } : {}),
      unavailable: t.unavailable,
    }),
  );
  const nodePools = c.pools.map((p, i) =>
    nodePool(`pool-${i}`, {
      weight: p.weight,
      ...(p.taint === undefined ? {} : { taints: [{ key: 'dedicated', value: 'x', effect: p.taint }] }),
      requirements: [
        ...(c.minValues === undefined || i > 0
          ? []
          : [{ key: 'node.kubernetes.io/instance-type', operator: 'Exists', minValues: c.minValues }]),
        ...(p.zones === undefined ? [] : [{ key: ZONE, operator: 'In', values: p.zones }]),
        ...(p.capacityType === undefined
          ? []
          : [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: [p.capacityType] }]),
      ],
      ...(p.cpuLimit === undefined && p.nodeLimit === undefined
        ? {}
        : {
            limits: {
              ...(p.cpuLimit === undefined ? {} : { cpu: String(p.cpuLimit) }),
              ...(p.nodeLimit === undefined ? {} : { nodes: String(p.nodeLimit) }),
            },
          }),
    }),
  );
  const pods: Pod[] = [];
  c.groups.forEach((g, gi) => {
    const labels = { app: `g${gi}` };
    const target = g.affinity?.other === true ? { app: `g${(gi + 1) % c.groups.length}` } : labels;
    const spec: Record<string, unknown> = {
      containers: [
        {
          name: 'app',
          resources: {
            requests: { cpu: g.cpu, memory: g.memory, ...(g.gpu ? { 'nvidia.com/gpu': '1' } : {}) },
          },
          ...(g.hostPort ? { ports: [{ containerPort: 8080, hostPort: 8080 }] } : {}),
        },
      ],
    };
    if (g.tolerate) spec.tolerations = [{ key: 'dedicated', operator: 'Exists' }];
    const nodeSelector: Record<string, string> = {};
    if (g.zone !== undefined) nodeSelector[ZONE] = g.zone;
    if (g.arm !== undefined) nodeSelector['kubernetes.io/arch'] = g.arm ? 'arm64' : 'amd64';
    if (Object.keys(nodeSelector).length > 0) spec.nodeSelector = nodeSelector;
    if (g.spread !== undefined) {
      spec.topologySpreadConstraints = [
        {
          maxSkew: g.spread.maxSkew,
          topologyKey: g.spread.key,
          whenUnsatisfiable: g.spread.hard ? 'DoNotSchedule' : 'ScheduleAnyway',
          labelSelector: { matchLabels: labels },
          ...(g.spread.hard && g.spread.minDomains !== undefined ? { minDomains: g.spread.minDomains } : {}),
        },
      ];
    }
    const affinity: Record<string, unknown> = {};
    if (g.anti !== undefined) {
      const term = { labelSelector: { matchLabels: labels }, topologyKey: g.anti.key };
      affinity.podAntiAffinity = g.anti.preferred
        ? { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, podAffinityTerm: term }] }
        : { requiredDuringSchedulingIgnoredDuringExecution: [term] };
    }
    if (g.affinity !== undefined) {
      affinity.podAffinity = {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { labelSelector: { matchLabels: target }, topologyKey: g.affinity.key },
        ],
      };
    }
    if (g.preferZone !== undefined) {
      affinity.nodeAffinity = {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 5,
            preference: { matchExpressions: [{ key: ZONE, operator: 'In', values: [g.preferZone] }] },
          },
        ],
      };
    }
    if (Object.keys(affinity).length > 0) spec.affinity = affinity;
    for (let i = 0; i < g.count; i++) pods.push(pod(`g${gi}-${i}`, { labels, spec }));
  });
  const existingCapacity = c.nodes.map((n, i) => {
    const name = `node-${i}`;
    const nd = node(name, {
      labels: { [ZONE]: n.zone },
      allocatable: { cpu: n.cpu, memory: '8Gi', pods: '20' },
    });
    const bound = Array.from({ length: n.bound }, (_, j) =>
      boundPod(`old-${i}-${j}`, name, { cpu: '500m', memory: '512Mi', labels: { app: `g${n.group}` } }),
    );
    return existing(nd, bound);
  });
  return solverInput({
    pods,
    nodePools,
    types,
    existing: existingCapacity,
    daemonSets: c.daemon === undefined ? [] : [daemonSet('agent', { cpu: c.daemon })],
    options: { repack: c.repack, minValuesPolicy: c.minValuesPolicy as 'Strict' | 'BestEffort' },
  });
}

describe('solve: properties over random clusters', () => {
  it('produces results the independent checker accepts', () => {
    fc.assert(
      fc.property(clusterArb, (c) => {
        const input = build(c);
        const result = solve(input);
        expect(checkSolution(input, result)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('is deterministic: the same input gives the same result', () => {
    fc.assert(
      fc.property(clusterArb, (c) => {
        const input = build(c);
        expect(JSON.stringify(summarize(solve(input)))).toBe(JSON.stringify(summarize(solve(input))));
      }),
      { numRuns: 100 },
    );
  });

  it('gives the same results with a SolverCache shared by a sequence of solves as without one', () => {
    fc.assert(
      fc.property(clusterArb, (c) => {
        const input = build(c);
        // What a disruption pass does: solves over the same NodePools, types and capacity objects,
        // each leaving some capacity or pods out.
        const variants: SolverInput[] = [
          input,
          { ...input, pods: input.pods.slice(1) },
          { ...input, existing: input.existing.slice(1) },
          {
            ...input,
            existing: input.existing.map((e, i) => (i === 0 ? { ...e, markedForDeletion: true } : e)),
          },
          input,
          // Then what changes the NodePools' domains: a NodePool gone, a provider's new type list.
          { ...input, nodePools: input.nodePools.slice(1) },
          {
            ...input,
            instanceTypes: new Map(
              [...input.instanceTypes].map(([pool, types]) => [
                pool,
                types.slice(0, Math.max(1, types.length - 1)),
              ]),
            ),
          },
          input,
        ];
        const cache = new SolverCache();
        for (const v of variants) {
          expect(JSON.stringify(summarize(solve({ ...v, cache })))).toBe(JSON.stringify(summarize(solve(v))));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('never leaves a pod unschedulable that a fresh single-pod solve could place on an empty cluster', () => {
    // A pod refused with no competition, no limits used and no topology history is really unplaceable;
    // with competition it may only be refused for limits, topology or ports.
    fc.assert(
      fc.property(clusterArb, (c) => {
        const input = build(c);
        const result = solve(input);
        for (const u of result.unschedulable) {
          expect(u.reason.length).toBeGreaterThan(0);
          expect(u.reason).not.toContain('could take it now');
        }
      }),
      { numRuns: 100 },
    );
  });
});
