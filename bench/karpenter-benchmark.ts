// Karpenter's scheduling benchmark input (kubernetes-sigs/karpenter's
// scheduling_benchmark_test.go): its instance types, pods and NodePool, shared by
// `bench:schedule` (solver only) and `bench:cli` (the CLI end to end, from files).
import { nodePoolSchema, type Pod, podSchema } from '../packages/core/dist/apis/index.js';
import {
  type InstanceType,
  newInstanceType,
  newOffering,
} from '../packages/core/dist/cloudprovider/index.js';
import {
  type NodeSelectorRequirementInput,
  parseResourceList,
  Requirement,
  Requirements,
  type ResourceList,
} from '../packages/core/dist/scheduling/index.js';
import { Xorshift32 } from './calibration.ts';

export { Xorshift32 };

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/** Karpenter's seed. */
export const Seed = 42;

// ---------------------------------------------------------------------------------------------
// Karpenter's workload

export const Zones = ['test-zone-1', 'test-zone-2', 'test-zone-3'];
export const LabelValues = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
export const CpuMilli = [100, 250, 500, 1000, 1500];
export const MemoryMi = [100, 256, 512, 1024, 2048, 4096];

/**
 * Karpenter's fake instance types: type i has i+1 vCPU, 2(i+1) GiB and 10(i+1) pods, costs
 * 0.1 per vCPU plus 0.1 per GB (10^9 bytes) in every offering, is offered spot in zones 1-2
 * and on-demand in zones 1-3, runs amd64 with linux, windows or darwin, and reserves 100m and
 * 10Mi for kubelet.
 */
export function karpenterInstanceTypes(count: number): InstanceType[] {
  const types: InstanceType[] = [];
  for (let i = 0; i < count; i++) {
    const cpu = i + 1;
    const memoryGi = 2 * (i + 1);
    const name = `fake-it-${i}`;
    const price = 0.1 * cpu + (0.1 * memoryGi * 2 ** 30) / 1e9;
    const offerings = [
      ...Zones.slice(0, 2).map((zone) => newOffering({ zone, capacityType: 'spot', price })),
      ...Zones.map((zone) => newOffering({ zone, capacityType: 'on-demand', price })),
    ];
    types.push(
      newInstanceType({
        name,
        requirements: new Requirements([
          Requirement.create('node.kubernetes.io/instance-type', 'In', [name]),
          Requirement.create('kubernetes.io/arch', 'In', ['amd64']),
          Requirement.create('kubernetes.io/os', 'In', ['darwin', 'linux', 'windows']),
          Requirement.create('topology.kubernetes.io/zone', 'In', Zones),
          Requirement.create('karpenter.sh/capacity-type', 'In', ['on-demand', 'spot']),
        ]),
        offerings,
        capacity: parseResourceList({ cpu, memory: `${memoryGi}Gi`, pods: 10 * (i + 1) }),
        overhead: {
          kubeReserved: parseResourceList({ cpu: '100m', memory: '10Mi' }),
          systemReserved: new Map(),
          evictionThreshold: new Map(),
        },
      }),
    );
  }
  return types;
}

export type Fifth =
  | 'generic'
  | 'zonal-spread'
  | 'hostname-spread'
  | 'zonal-affinity'
  | 'hostname-anti-affinity';
export const Fifths: readonly Fifth[] = [
  'generic',
  'zonal-spread',
  'hostname-spread',
  'zonal-affinity',
  'hostname-anti-affinity',
];

export interface BenchPod {
  readonly pod: Pod;
  readonly fifth: Fifth;
  /** cpu, memory and the pod itself, as the solver counts them. */
  readonly requests: ResourceList;
}

/**
 * Karpenter's pods in fifths (any remainder generic): generic pods with a random `my-label`;
 * zonal and hostname topology spread (maxSkew 1, DoNotSchedule) with a random `my-label` and a
 * selector on an independently drawn `my-label`, as Karpenter's test draws them; zonal
 * self-affinity (a random `my-affinity` label and a required affinity to that same label); and
 * hostname self-anti-affinity (every pod `app: nginx`, none two to a node). cpu and memory are
 * drawn from Karpenter's sets. Draws per pod, in order: labels, selector, cpu, memory.
 */
export function karpenterPods(count: number, rng: Xorshift32): BenchPod[] {
  const per = Math.floor(count / Fifths.length);
  const plan: Fifth[] = Fifths.flatMap((f) => Array<Fifth>(per).fill(f));
  while (plan.length < count) plan.push('generic');
  return plan.map((fifth, i) => {
    const name = `${fifth}-${i}`;
    let labels: Record<string, string>;
    const spec: Record<string, unknown> = {};
    switch (fifth) {
      case 'generic':
        labels = { 'my-label': rng.pick(LabelValues) };
        break;
      case 'zonal-spread':
      case 'hostname-spread':
        labels = { 'my-label': rng.pick(LabelValues) };
        spec.topologySpreadConstraints = [
          {
            maxSkew: 1,
            topologyKey: fifth === 'zonal-spread' ? 'topology.kubernetes.io/zone' : 'kubernetes.io/hostname',
            whenUnsatisfiable: 'DoNotSchedule',
            labelSelector: { matchLabels: { 'my-label': rng.pick(LabelValues) } },
          },
        ];
        break;
      case 'zonal-affinity': {
        const value = rng.pick(LabelValues);
        labels = { 'my-affinity': value };
        spec.affinity = {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchLabels: { 'my-affinity': value } },
                topologyKey: 'topology.kubernetes.io/zone',
              },
            ],
          },
        };
        break;
      }
      case 'hostname-anti-affinity':
        labels = { app: 'nginx' };
        spec.affinity = {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'nginx' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        };
        break;
    }
    const cpu = `${rng.pick(CpuMilli)}m`;
    const memory = `${rng.pick(MemoryMi)}Mi`;
    const pod = podSchema.parse({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'default',
        uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
        creationTimestamp: '2025-01-01T00:00:00Z',
        labels,
      },
      spec: {
        ...spec,
        containers: [{ name: 'app', image: 'app', resources: { requests: { cpu, memory } } }],
      },
    });
    return { pod, fifth, requests: parseResourceList({ cpu, memory, pods: 1 }) };
  });
}

/** One NodePool without limits (and by default without requirements), as Karpenter's test.NodePool(). */
export function unlimitedNodePool(requirements: readonly NodeSelectorRequirementInput[] = []) {
  return nodePoolSchema.parse({
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: 'default' },
          requirements,
        },
      },
    },
  });
}

/**
 * The benchmark's input as the CLI reads it, one JSON document each: the pods as a `v1 List`,
 * the NodePool, and Karpenter's instance types as an InstanceTypeCatalog (linux only: a catalog
 * label holds one value). For `nodewright schedule -f pods.json -f nodepool.json --catalog
 * catalog.json`.
 */
export function karpenterCliInput(podCount: number): { pods: unknown; nodePool: unknown; catalog: unknown } {
  const pods = karpenterPods(podCount, new Xorshift32(Seed)).map((p) => p.pod);
  const instanceTypes = Array.from({ length: 400 }, (_, i) => {
    const cpu = i + 1;
    const memoryGi = 2 * (i + 1);
    const price = 0.1 * cpu + (0.1 * memoryGi * 2 ** 30) / 1e9;
    return {
      name: `fake-it-${i}`,
      labels: { 'kubernetes.io/arch': 'amd64', 'kubernetes.io/os': 'linux' },
      capacity: { cpu: String(cpu), memory: `${memoryGi}Gi`, pods: String(10 * cpu) },
      overhead: { kubeReserved: { cpu: '100m', memory: '10Mi' } },
      offerings: [
        ...Zones.slice(0, 2).map((zone) => ({ zone, capacityType: 'spot', price })),
        ...Zones.map((zone) => ({ zone, capacityType: 'on-demand', price })),
      ],
    };
  });
  return {
    pods: { apiVersion: 'v1', kind: 'List', items: pods },
    nodePool: unlimitedNodePool(),
    catalog: {
      apiVersion: 'nodewright.dev/v1alpha1',
      kind: 'InstanceTypeCatalog',
      metadata: { name: 'karpenter-benchmark' },
      instanceTypes,
    },
  };
}
