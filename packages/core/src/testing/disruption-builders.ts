import type { DaemonSet } from '../apis/kubernetes/daemon-set.js';
import type { Node } from '../apis/kubernetes/node.js';
import type { Pod } from '../apis/kubernetes/pod.js';
import {
  type PodDisruptionBudget,
  podDisruptionBudgetSchema,
} from '../apis/kubernetes/pod-disruption-budget.js';
import { Labels } from '../apis/labels.js';
import type { NodeClaim, NodeClaimInput } from '../apis/v1/nodeclaim.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import type { InstanceType } from '../cloudprovider/instance-type.js';
import type { DisruptionSnapshot } from '../disruption/decide/snapshot.js';
import { podKey } from '../scheduling/pod/identity.js';
import { standardTypes } from '../scheduling/solver/testing/builders.js';
import type { ExistingCapacity, NewClaim } from '../scheduling/solver/types.js';
import { isInitializedNode } from '../state/capacity.js';
import type { DeepPartial } from './merge.js';
import { aNode, type NodeInput } from './node-builder.js';
import { TestNodeClassRef } from './node-class.js';
import { aNodeClaim } from './nodeclaim-builder.js';
import { aNodePool } from './nodepool-builder.js';
import { aPod, aRunningPod, type PodInput } from './pod-builder.js';

/**
 * Builders for disruption snapshots, in option form, on top of the kit's `aNode`, `aPod`,
 * `aRunningPod`, `aNodePool` and `aNodeClaim`, with the kit's defaults (pods request 100m and
 * 64Mi; NodePools get the API server's 10% budget): a test that needs other sizes or budgets
 * says so where it builds them. What these add is the situation a disruption test starts
 * from: nodes of a NodePool created long before T0 (so consolidateAfter and do-not-disrupt
 * durations have passed), their claims, pods bound to them, PDBs, and the snapshot itself.
 */

/** A fixed "now" for tests: Wednesday 2024-05-01 12:00 UTC. */
export const T0 = Date.parse('2024-05-01T12:00:00Z');
const LongAgo = '2024-04-30T12:00:00Z';

/** Allocatable of the standard types, by name. */
const Sizes: Readonly<Record<string, Record<string, string>>> = {
  small: { cpu: '2', memory: '4Gi', pods: '110' },
  medium: { cpu: '4', memory: '16Gi', pods: '110' },
  large: { cpu: '16', memory: '64Gi', pods: '110' },
};

export interface NodeOptions {
  readonly pool?: string;
  readonly type?: string;
  readonly zone?: string;
  readonly capacityType?: string;
  readonly created?: string;
  readonly ready?: boolean;
  readonly allocatable?: Record<string, string>;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  readonly taints?: { key: string; value?: string; effect: string }[];
  readonly deleting?: boolean;
  /** Default true: labelled `karpenter.sh/initialized=true`, as the lifecycle leaves it. */
  readonly initialized?: boolean;
}

/**
 * A Node of a NodePool (default `default`), a `medium` on-demand in zone-a, Ready, initialized,
 * created long ago.
 */
export function managedNode(name: string, o: NodeOptions = {}): Node {
  const type = o.type ?? 'medium';
  const allocatable = o.allocatable ?? Sizes[type] ?? Sizes.medium;
  return aNode({
    metadata: {
      name,
      creationTimestamp: o.created ?? LongAgo,
      labels: {
        [Labels.Hostname]: name,
        [Labels.NodePool]: o.pool ?? 'default',
        [Labels.InstanceType]: type,
        [Labels.Zone]: o.zone ?? 'zone-a',
        [Labels.CapacityType]: o.capacityType ?? 'on-demand',
        [Labels.Arch]: 'amd64',
        [Labels.OS]: 'linux',
        ...(o.initialized === false ? {} : { [Labels.Initialized]: 'true' }),
        ...o.labels,
      },
      ...(o.annotations === undefined ? {} : { annotations: o.annotations }),
      ...(o.deleting ? { deletionTimestamp: '2024-05-01T11:59:00Z' } : {}),
    },
    spec: { providerID: `test://${name}`, ...(o.taints === undefined ? {} : { taints: o.taints }) },
    status: {
      capacity: allocatable,
      allocatable,
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  } as DeepPartial<NodeInput>);
}

export interface ClaimOptions {
  readonly conditions?: ReadonlyArray<{
    type: string;
    status: string;
    reason?: string;
    lastTransitionTime?: string;
  }>;
  readonly annotations?: Record<string, string>;
  readonly lastPodEventTime?: string;
  readonly created?: string;
  readonly terminationGracePeriod?: string;
  readonly expireAfter?: string;
}

/** The NodeClaim of a node: same labels, Initialized, created with the node. */
export function claimFor(node: Node, o: ClaimOptions = {}): NodeClaim {
  return aNodeClaim({
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name: `${node.metadata.name}-claim`,
      labels: node.metadata.labels,
      creationTimestamp: o.created ?? node.metadata.creationTimestamp,
      ...(o.annotations === undefined ? {} : { annotations: o.annotations }),
    },
    spec: {
      nodeClassRef: { ...TestNodeClassRef },
      requirements: [],
      ...(o.terminationGracePeriod === undefined ? {} : { terminationGracePeriod: o.terminationGracePeriod }),
      ...(o.expireAfter === undefined ? {} : { expireAfter: o.expireAfter }),
    },
    status: {
      nodeName: node.metadata.name,
      providerID: node.spec.providerID,
      conditions: (o.conditions ?? [{ type: 'Initialized', status: 'True' }]).map((c) => ({
        lastTransitionTime: LongAgo,
        ...c,
      })),
      ...(o.lastPodEventTime === undefined ? {} : { lastPodEventTime: o.lastPodEventTime }),
    },
  } as unknown as DeepPartial<NodeClaimInput>);
}

export interface BoundPodOptions {
  readonly namespace?: string;
  readonly cpu?: string;
  readonly memory?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  readonly owner?: { kind: string; name: string };
  readonly priority?: number;
  readonly created?: string;
  readonly ready?: boolean;
  readonly spec?: Record<string, unknown>;
}

/**
 * A pod on `nodeName`, Running and Ready (`aRunningPod`), or Pending when `nodeName` is the
 * empty string (`aPod`), created long ago; requests are the kit's (100m, 64Mi) unless given.
 */
export function boundPod(name: string, nodeName: string, o: BoundPodOptions = {}): Pod {
  // Containers are one value to the merge: restate the kit's container with the asked requests.
  const container = aPod().spec.containers[0]!;
  const requests = {
    ...container.resources?.requests,
    ...(o.cpu === undefined ? {} : { cpu: o.cpu }),
    ...(o.memory === undefined ? {} : { memory: o.memory }),
  };
  const overrides = {
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      creationTimestamp: o.created ?? LongAgo,
      ...(o.labels === undefined ? {} : { labels: o.labels }),
      ...(o.annotations === undefined ? {} : { annotations: o.annotations }),
      ...(o.owner === undefined
        ? {}
        : {
            ownerReferences: [
              { apiVersion: 'apps/v1', controller: true, uid: `uid-${o.owner.name}`, ...o.owner },
            ],
          }),
    },
    spec: {
      containers: [{ ...container, resources: { requests } }],
      ...(o.priority === undefined ? {} : { priority: o.priority }),
      ...o.spec,
    },
    ...(o.ready === false ? { status: { conditions: [{ type: 'Ready', status: 'False' }] } } : {}),
  } as DeepPartial<PodInput>;
  return nodeName === '' ? aPod(overrides) : aRunningPod(nodeName, overrides);
}

export interface PdbOptions {
  readonly namespace?: string;
  readonly matchLabels: Record<string, string>;
  readonly minAvailable?: number | string;
  readonly maxUnavailable?: number | string;
  readonly disruptionsAllowed?: number;
  readonly unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow';
}

export function pdb(name: string, o: PdbOptions): PodDisruptionBudget {
  return podDisruptionBudgetSchema.parse({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: o.namespace ?? 'default' },
    spec: {
      selector: { matchLabels: o.matchLabels },
      ...(o.minAvailable === undefined ? {} : { minAvailable: o.minAvailable }),
      ...(o.maxUnavailable === undefined ? {} : { maxUnavailable: o.maxUnavailable }),
      ...(o.unhealthyPodEvictionPolicy === undefined
        ? {}
        : { unhealthyPodEvictionPolicy: o.unhealthyPodEvictionPolicy }),
    },
    ...(o.disruptionsAllowed === undefined ? {} : { status: { disruptionsAllowed: o.disruptionsAllowed } }),
  });
}

/** One node of a test cluster: the Node, optionally its NodeClaim, and its pods. */
export interface TestNode {
  readonly node: Node;
  readonly claim?: NodeClaim;
  readonly pods?: readonly Pod[];
  /** Default: as the cluster state reads it (see isInitializedNode). */
  readonly initialized?: boolean;
}

export interface ClusterOptions {
  readonly nodes: readonly TestNode[];
  readonly pools?: readonly NodePool[];
  readonly types?: readonly InstanceType[];
  readonly pdbs?: readonly PodDisruptionBudget[];
  readonly pending?: readonly Pod[];
  readonly daemonSets?: readonly DaemonSet[];
}

/** A snapshot: the kit's NodePool `default` (`aNodePool()`) and the standard types (small, medium, large) unless given. */
export function cluster(o: ClusterOptions): DisruptionSnapshot {
  const pools = o.pools ?? [aNodePool()];
  const types = o.types ?? standardTypes();
  const capacity: ExistingCapacity[] = o.nodes.map((n) => ({
    name: n.node.metadata.name,
    node: n.node,
    ...(n.claim === undefined ? {} : { nodeClaim: n.claim }),
    pods: n.pods ?? [],
    initialized: n.initialized ?? isInitializedNode(n.node, n.claim),
  }));
  return {
    capacity,
    pendingPods: o.pending ?? [],
    nodePools: pools,
    instanceTypes: new Map(pools.map((p) => [p.metadata.name ?? '', types])),
    daemonSets: o.daemonSets ?? [],
    podDisruptionBudgets: o.pdbs ?? [],
  };
}

/**
 * Pods bound to `nodeName` (a `small` or `medium` node) requesting the CPUs given and 256Mi each,
 * keeping only those that fit with 100m to spare, in order: how property tests fill random
 * nodes without overcommitting them.
 */
export function podsThatFit(nodeName: string, type: 'small' | 'medium', cpus: readonly string[]): Pod[] {
  const size = type === 'small' ? 2000 : 4000;
  let used = 0;
  return cpus.flatMap((cpu, j) => {
    const m = cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000;
    if (used + m > size - 100) return [];
    used += m;
    return [boundPod(`${nodeName}-p${j}`, nodeName, { cpu, memory: '256Mi' })];
  });
}

/** `count` medium nodes `<prefix>-0`... each with `podsEach` bound pods requesting `cpu`. */
export function nodesWithPods(
  prefix: string,
  count: number,
  podsEach: number,
  cpu: string,
  o: NodeOptions = {},
): TestNode[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `${prefix}-${i}`;
    return {
      node: managedNode(name, o),
      pods: Array.from({ length: podsEach }, (_, j) => boundPod(`${name}-p${j}`, name, { cpu })),
    };
  });
}

/** A replacement claim reduced to what tests compare. */
export function claimSummary(claim: NewClaim): {
  nodePool: string;
  types: string[];
  capacityTypes: string[] | undefined;
  zones: string[] | undefined;
  pods: string[];
  price: number;
} {
  const values = (key: string) => {
    const r = claim.requirements.get(key);
    return r === undefined || r.complement ? undefined : [...r.values].sort();
  };
  return {
    nodePool: claim.nodePool,
    types: claim.instanceTypes.map((t) => t.name),
    capacityTypes: values(Labels.CapacityType),
    zones: values(Labels.Zone),
    pods: claim.pods.map(podKey).sort(),
    price: claim.price,
  };
}
