import type { Pod } from '../../../apis/kubernetes/pod.js';
import { podSchema } from '../../../apis/kubernetes/pod.js';
import { Labels } from '../../../apis/labels.js';
import { type InstanceType, newInstanceType } from '../../../cloudprovider/instance-type.js';
import { newOffering } from '../../../cloudprovider/offering.js';
import { Requirement } from '../../requirements/requirement.js';
import { Requirements } from '../../requirements/requirements.js';
import { parseResourceList } from '../../resources/resource-list.js';
import type { SolverInput } from '../types.js';
import { nodePool } from './builders.js';

/** A small seeded generator (mulberry32), so benchmark inputs are the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CPUS = ['100m', '250m', '500m', '1000m', '1500m'];
const MEMORIES = ['100Mi', '256Mi', '512Mi', '1024Mi', '2048Mi', '4096Mi'];
const LABEL_VALUES = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

/**
 * Karpenter's scheduling benchmark catalog: type i has i+1 vCPU, 2(i+1) GiB and 10(i+1) pods,
 * costs 0.1 per vCPU plus 0.1 per GiB, and is offered as spot in two zones and on-demand in three.
 */
export function benchmarkInstanceTypes(count = 400): InstanceType[] {
  const zones = ['test-zone-1', 'test-zone-2', 'test-zone-3'];
  return Array.from({ length: count }, (_, i) => {
    const cpu = i + 1;
    const price = 0.1 * cpu + 0.1 * 2 * cpu;
    const name = `fake-it-${i}`;
    const offerings = [
      ...zones.slice(0, 2).map((zone) => newOffering({ zone, capacityType: 'spot', price })),
      ...zones.map((zone) => newOffering({ zone, capacityType: 'on-demand', price })),
    ];
    return newInstanceType({
      name,
      requirements: new Requirements([
        Requirement.create(Labels.InstanceType, 'In', [name]),
        Requirement.create(Labels.Arch, 'In', ['amd64']),
        Requirement.create(Labels.OS, 'In', ['linux']),
        Requirement.create(Labels.Zone, 'In', zones),
        Requirement.create(Labels.CapacityType, 'In', ['spot', 'on-demand']),
      ]),
      offerings,
      capacity: parseResourceList({ cpu: String(cpu), memory: `${2 * cpu}Gi`, pods: String(10 * cpu) }),
    });
  });
}

/**
 * Karpenter's benchmark pods, in fifths: generic; zonal spread (maxSkew 1); hostname spread
 * (maxSkew 1); zonal self-affinity; hostname self-anti-affinity. Labels and selectors draw from
 * seven values, requests from Karpenter's cpu and memory sets.
 */
export function benchmarkPods(count: number, seed = 42): Pod[] {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const out: Pod[] = [];
  const make = (kind: string, i: number, labels: Record<string, string>, spec: Record<string, unknown>) =>
    podSchema.parse({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${kind}-${i}`,
        namespace: 'default',
        uid: `${kind}-${String(i).padStart(6, '0')}`,
        labels,
      },
      spec: {
        containers: [{ name: 'app', resources: { requests: { cpu: pick(CPUS), memory: pick(MEMORIES) } } }],
        ...spec,
      },
    });
  const fifth = Math.floor(count / 5);
  for (let i = 0; i < fifth; i++) out.push(make('generic', i, { 'my-label': pick(LABEL_VALUES) }, {}));
  for (const [kind, key] of [
    ['zone-spread', Labels.Zone],
    ['host-spread', Labels.Hostname],
  ] as const) {
    for (let i = 0; i < fifth; i++) {
      out.push(
        make(
          kind,
          i,
          { 'my-label': pick(LABEL_VALUES) },
          {
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: key,
                whenUnsatisfiable: 'DoNotSchedule',
                labelSelector: { matchLabels: { 'my-label': pick(LABEL_VALUES) } },
              },
            ],
          },
        ),
      );
    }
  }
  for (let i = 0; i < fifth; i++) {
    const labels = { 'my-affinity': pick(LABEL_VALUES) };
    out.push(
      make('zone-affinity', i, labels, {
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: labels }, topologyKey: Labels.Zone },
            ],
          },
        },
      }),
    );
  }
  for (let i = 0; i < fifth; i++) {
    const labels = { app: 'nginx' };
    out.push(
      make('host-anti-affinity', i, labels, {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: labels }, topologyKey: Labels.Hostname },
            ],
          },
        },
      }),
    );
  }
  for (let i = out.length; i < count; i++)
    out.push(make('generic', i, { 'my-label': pick(LABEL_VALUES) }, {}));
  return out;
}

/** The whole benchmark input: one unlimited NodePool `default` over the benchmark catalog. */
export function benchmarkInput(podCount: number, seed = 42, typeCount = 400): SolverInput {
  return {
    pods: benchmarkPods(podCount, seed),
    existing: [],
    daemonSets: [],
    nodePools: [nodePool('default')],
    instanceTypes: new Map([['default', benchmarkInstanceTypes(typeCount)]]),
  };
}
