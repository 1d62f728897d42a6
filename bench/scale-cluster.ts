// The cluster generator of the scale benchmark (issue 18, item 2): a running cluster of N KWOK
// nodes and P pods for `disrupt`, or P pending pods for `schedule`, as plain Kubernetes JSON.
// Deterministic (xorshift32, fixed seed), so every run and every machine reads the same cluster.
// Run directly to write the files:
//   node bench/scale-cluster.ts --nodes 10000 --pods 100000 --out DIR [--pending 100000]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { kwokInstanceTypes } from '../providers/kwok/dist/catalog/index.js';
import { Xorshift32 } from './calibration.ts';

/** What the generator makes; every field has the default of the 10,000 / 100,000 case. */
export interface ScaleClusterOptions {
  /** Running managed nodes (each with its NodeClaim). */
  readonly nodes: number;
  /** Running pods bound to those nodes, spread evenly (each node gets pods / nodes, give or take one). */
  readonly pods: number;
  /** Pods per Deployment (the last one may be smaller); each Deployment has one shape and a PDB. */
  readonly replicas?: number;
  /**
   * Requested share of a node's allocatable cpu and memory the generator aims at when it picks
   * the node's type (the smallest of a random family that holds its pods at this share or less),
   * so consolidation has room to find.
   */
  readonly targetUtilization?: number;
  readonly seed?: number;
  /** The pass's time; nodes and pods were created a day before, so consolidateAfter has passed. */
  readonly now?: string;
}

/** The time every generated object is judged at (pass it to `disrupt --now`). */
export const ScaleNow = '2026-01-05T12:00:00Z';
const Created = '2026-01-04T12:00:00Z';
const Zones = ['test-zone-a', 'test-zone-b', 'test-zone-c', 'test-zone-d'];
const Families = ['c', 's', 'm'];
const Sizes = [2, 4, 8, 16, 32, 48, 64];
const CpuMilli = [100, 250, 500, 750, 1000, 1500, 2000];
const MemoryMi = [128, 256, 512, 1024, 2048, 3072, 4096];

type Json = Record<string, unknown>;

/** A pod shape: its Deployment's requests and whether its pods spread over zones. */
interface Workload {
  readonly name: string;
  readonly cpuMilli: number;
  readonly memoryMi: number;
  readonly zonalSpread: boolean;
}

function workloads(pods: number, replicas: number, rng: Xorshift32): Workload[] {
  const out: Workload[] = [];
  for (let i = 0; i * replicas < pods; i++) {
    out.push({
      name: `app-${i}`,
      cpuMilli: rng.pick(CpuMilli),
      memoryMi: rng.pick(MemoryMi),
      // One Deployment in five spreads over zones with ScheduleAnyway, as many charts default to.
      zonalSpread: rng.int(5) === 0,
    });
  }
  return out;
}

function podJson(w: Workload, index: number, nodeName: string | undefined): Json {
  const labels = { app: w.name };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${w.name}-${index}`,
      namespace: 'default',
      uid: `pod-${w.name}-${index}`,
      creationTimestamp: Created,
      labels,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${w.name}-rs`,
          uid: `rs-${w.name}`,
          controller: true,
        },
      ],
    },
    spec: {
      ...(nodeName === undefined ? {} : { nodeName }),
      containers: [
        {
          name: 'app',
          image: 'example.com/app:1',
          resources: { requests: { cpu: `${w.cpuMilli}m`, memory: `${w.memoryMi}Mi` } },
        },
      ],
      ...(w.zonalSpread
        ? {
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'topology.kubernetes.io/zone',
                whenUnsatisfiable: 'ScheduleAnyway',
                labelSelector: { matchLabels: labels },
              },
            ],
          }
        : {}),
    },
    status:
      nodeName === undefined
        ? {
            phase: 'Pending',
            conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
          }
        : { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** The one NodePool: KWOK's linux/amd64 c/s/m types, spot and on-demand, 10 % of nodes at a time. */
export function scaleNodePool(): Json {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: 'default' },
          requirements: [
            { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
            { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
            { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] },
          ],
        },
      },
      disruption: {
        consolidationPolicy: 'WhenEmptyOrUnderutilized',
        consolidateAfter: '5m',
        budgets: [{ nodes: '10%' }],
      },
    },
  };
}

/**
 * A running cluster: `nodes` Nodes (KWOK types, their NodeClaims) holding `pods` pods of
 * Deployments with one PDB each (maxUnavailable 1), listed in one array of objects. Node i takes
 * the next pods of the Deployment stream and the smallest type of a random family that holds
 * them at `targetUtilization` of allocatable.
 */
export function scaleCluster(options: ScaleClusterOptions): Json[] {
  const rng = new Xorshift32(options.seed ?? 42);
  const replicas = options.replicas ?? 50;
  const target = options.targetUtilization ?? 0.6;
  const now = options.now ?? ScaleNow;
  const types = new Map(kwokInstanceTypes().map((t) => [t.name, t]));
  const stream = workloads(options.pods, replicas, rng);
  const nodes: Json[] = [];
  const claims: Json[] = [];
  const pods: Json[] = [];
  let next = 0;
  for (let i = 0; i < options.nodes; i++) {
    const count =
      Math.floor(((i + 1) * options.pods) / options.nodes) - Math.floor((i * options.pods) / options.nodes);
    const name = `node-${i}`;
    let cpu = 0;
    let memory = 0;
    const mine: Array<[Workload, number]> = [];
    for (let k = 0; k < count; k++, next++) {
      const w = stream[Math.floor(next / replicas)]!;
      cpu += w.cpuMilli;
      memory += w.memoryMi;
      mine.push([w, next % replicas]);
    }
    const family = rng.pick(Families);
    const type = Sizes.map((s) => types.get(`${family}-${s}x-amd64-linux`)!).find((t) => {
      const a = t.allocatable;
      return (
        cpu <= target * a.get('cpu')!.toMilliNumber() &&
        memory * 2 ** 20 <= target * a.get('memory')!.toNumber() &&
        count <= a.get('pods')!.toNumber()
      );
    });
    if (type === undefined) throw new Error(`no ${family} type holds ${count} pods, ${cpu}m and ${memory}Mi`);
    const zone = Zones[i % Zones.length]!;
    const capacityType = rng.int(3) === 0 ? 'spot' : 'on-demand';
    const labels = {
      'karpenter.sh/nodepool': 'default',
      'karpenter.sh/capacity-type': capacityType,
      'karpenter.sh/initialized': 'true',
      'karpenter.sh/registered': 'true',
      'node.kubernetes.io/instance-type': type.name,
      'topology.kubernetes.io/zone': zone,
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/hostname': name,
      'karpenter.kwok.sh/instance-family': family,
    };
    const providerID = `kwok://${name}`;
    const format = (list: ReadonlyMap<string, { toString(): string }>) =>
      Object.fromEntries([...list].map(([k, q]) => [k, q.toString()]));
    nodes.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, uid: `node-uid-${i}`, creationTimestamp: Created, labels },
      spec: { providerID },
      status: {
        capacity: format(type.capacity),
        allocatable: format(type.allocatable),
        conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: now, lastTransitionTime: Created }],
      },
    });
    claims.push({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodeClaim',
      metadata: { name: `${name}-claim`, uid: `claim-uid-${i}`, creationTimestamp: Created, labels },
      spec: {
        nodeClassRef: { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: 'default' },
        requirements: [{ key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] }],
      },
      status: {
        nodeName: name,
        providerID,
        conditions: ['Launched', 'Registered', 'Initialized'].map((type) => ({
          type,
          status: 'True',
          reason: type,
          lastTransitionTime: Created,
        })),
      },
    });
    for (const [w, index] of mine) pods.push(podJson(w, index, name));
  }
  const pdbs = stream.map((w) => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: w.name, namespace: 'default' },
    spec: { maxUnavailable: 1, selector: { matchLabels: { app: w.name } } },
  }));
  return [scaleNodePool(), ...nodes, ...claims, ...pdbs, ...pods];
}

/** `pods` pending pods of the same Deployment mix, for `schedule` on an empty cluster. */
export function pendingPods(
  pods: number,
  options: { readonly replicas?: number; readonly seed?: number } = {},
): Json[] {
  const replicas = options.replicas ?? 50;
  const stream = workloads(pods, replicas, new Xorshift32(options.seed ?? 42));
  return Array.from({ length: pods }, (_, i) =>
    podJson(stream[Math.floor(i / replicas)]!, i % replicas, undefined),
  );
}

/** The objects as one `kind: List` JSON document, the form `kubectl get -o json` writes. */
export function listJson(items: readonly Json[]): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (import.meta.main) {
  const nodes = Number(option('--nodes') ?? 10_000);
  const pods = Number(option('--pods') ?? 100_000);
  const pending = Number(option('--pending') ?? 0);
  const out = resolve(option('--out') ?? `scale-${nodes}-${pods}`);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'cluster.json'), listJson(scaleCluster({ nodes, pods })));
  if (pending > 0)
    writeFileSync(join(out, 'pending.json'), listJson([scaleNodePool(), ...pendingPods(pending)]));
  console.error(`wrote ${out}: disrupt -f cluster.json --catalog kwok --now ${ScaleNow}`);
}
