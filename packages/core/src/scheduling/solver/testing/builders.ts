import type { DaemonSet } from '../../../apis/kubernetes/daemon-set.js';
import { daemonSetSchema } from '../../../apis/kubernetes/daemon-set.js';
import type { Node } from '../../../apis/kubernetes/node.js';
import { nodeSchema } from '../../../apis/kubernetes/node.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import { Labels } from '../../../apis/labels.js';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import { type InstanceType, newInstanceType } from '../../../cloudprovider/instance-type.js';
import { newOffering } from '../../../cloudprovider/offering.js';
import { TestNodeClassRef } from '../../../testing/node-class.js';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import { aPod } from '../../../testing/pod-builder.js';
import { Requirement } from '../../requirements/requirement.js';
import { Requirements } from '../../requirements/requirements.js';
import { parseResourceList } from '../../resources/resource-list.js';
import type { ExistingCapacity, SolverInput, SolverOptions } from '../types.js';

/**
 * Builders for solver tests and examples: shorthand over the test kit's (aPod, aNodePool, with
 * its NodeClass reference) taking the fields a solver test cares about. Not used by the solver
 * itself.
 */

export interface PodOptions {
  readonly namespace?: string;
  readonly cpu?: string;
  readonly memory?: string;
  readonly requests?: Record<string, string>;
  readonly labels?: Record<string, string>;
  readonly nodeSelector?: Record<string, string>;
  readonly created?: string;
  readonly uid?: string;
  readonly spec?: Record<string, unknown>;
}

/** A pending pod with one container requesting `cpu` (default 1) and `memory` (default 1Gi). */
export function pod(name: string, o: PodOptions = {}): Pod {
  const requests = o.requests ?? { cpu: o.cpu ?? '1', memory: o.memory ?? '1Gi' };
  return aPod({
    metadata: {
      name,
      namespace: o.namespace ?? 'default',
      ...(o.labels === undefined ? {} : { labels: o.labels }),
      ...(o.uid === undefined ? {} : { uid: o.uid }),
      ...(o.created === undefined ? {} : { creationTimestamp: o.created }),
    },
    spec: {
      containers: [{ name: 'app', resources: { requests } }],
      ...(o.nodeSelector === undefined ? {} : { nodeSelector: o.nodeSelector }),
      ...o.spec,
    } as never,
  });
}

/** Copies of a pod named `<prefix>-0`, `<prefix>-1`, ... */
export function pods(prefix: string, count: number, o: PodOptions = {}): Pod[] {
  return Array.from({ length: count }, (_, i) => pod(`${prefix}-${i}`, o));
}

export interface NodePoolOptions {
  readonly requirements?: { key: string; operator: string; values?: string[]; minValues?: number }[];
  readonly taints?: { key: string; value?: string; effect: string }[];
  readonly startupTaints?: { key: string; value?: string; effect: string }[];
  readonly labels?: Record<string, string>;
  readonly limits?: Record<string, string>;
  readonly weight?: number;
}

/** A NodePool with no requirements unless given. */
export function nodePool(name: string, o: NodePoolOptions = {}): NodePool {
  return aNodePool({
    metadata: { name },
    spec: {
      template: {
        ...(o.labels === undefined ? {} : { metadata: { labels: o.labels } }),
        spec: {
          nodeClassRef: { ...TestNodeClassRef },
          requirements: o.requirements ?? [],
          ...(o.taints === undefined ? {} : { taints: o.taints }),
          ...(o.startupTaints === undefined ? {} : { startupTaints: o.startupTaints }),
        },
      },
      ...(o.limits === undefined ? {} : { limits: o.limits }),
      ...(o.weight === undefined ? {} : { weight: o.weight }),
    },
    // The options take plain strings (effects, operators); the schema checks them on parse.
  } as never);
}

export interface InstanceTypeOptions {
  readonly cpu?: string;
  readonly memory?: string;
  readonly pods?: string;
  readonly extra?: Record<string, string>;
  readonly zones?: readonly string[];
  readonly capacityTypes?: readonly string[];
  /** On-demand price per hour; spot costs 70 % of it. */
  readonly price?: number;
  readonly arch?: string;
  readonly labels?: Record<string, string>;
  /** Offerings (capacityType/zone) that are unavailable, e.g. `spot/zone-a`. */
  readonly unavailable?: readonly string[];
}

/** An instance type offered in every given zone and capacity type. */
export function instanceType(name: string, o: InstanceTypeOptions = {}): InstanceType {
  const zones = o.zones ?? ['zone-a', 'zone-b', 'zone-c'];
  const capacityTypes = o.capacityTypes ?? ['on-demand', 'spot'];
  const price = o.price ?? 1;
  const offerings = capacityTypes.flatMap((ct) =>
    zones.map((zone) =>
      newOffering({
        zone,
        capacityType: ct,
        price: ct === 'spot' ? Math.round(price * 0.7 * 1e6) / 1e6 : price,
        available: !(o.unavailable ?? []).includes(`${ct}/${zone}`),
      }),
    ),
  );
  return newInstanceType({
    name,
    requirements: new Requirements([
      Requirement.create(Labels.InstanceType, 'In', [name]),
      Requirement.create(Labels.Arch, 'In', [o.arch ?? 'amd64']),
      Requirement.create(Labels.OS, 'In', ['linux']),
      Requirement.create(Labels.Zone, 'In', [...zones]),
      Requirement.create(Labels.CapacityType, 'In', [...capacityTypes]),
      ...Object.entries(o.labels ?? {}).map(([k, v]) => Requirement.create(k, 'In', [v])),
    ]),
    offerings,
    capacity: parseResourceList({
      cpu: o.cpu ?? '4',
      memory: o.memory ?? '16Gi',
      pods: o.pods ?? '110',
      ...o.extra,
    }),
  });
}

export interface NodeOptions {
  readonly labels?: Record<string, string>;
  readonly allocatable?: Record<string, string>;
  readonly taints?: { key: string; value?: string; effect: string }[];
  readonly unschedulable?: boolean;
}

/** A registered Node (hostname label = name, zone-a unless labelled otherwise). */
export function node(name: string, o: NodeOptions = {}): Node {
  return nodeSchema.parse({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { [Labels.Hostname]: name, [Labels.Zone]: 'zone-a', ...o.labels } },
    spec: {
      ...(o.taints === undefined ? {} : { taints: o.taints }),
      ...(o.unschedulable === undefined ? {} : { unschedulable: o.unschedulable }),
    },
    status: { allocatable: o.allocatable ?? { cpu: '4', memory: '16Gi', pods: '110' } },
  });
}

/** A pod bound to a node. */
export function boundPod(name: string, nodeName: string, o: PodOptions = {}): Pod {
  const p = pod(name, o);
  return { ...p, spec: { ...p.spec, nodeName }, status: { phase: 'Running' } };
}

/** Existing, initialized capacity. */
export function existing(
  n: Node,
  bound: readonly Pod[] = [],
  o: Partial<ExistingCapacity> = {},
): ExistingCapacity {
  return { name: n.metadata.name!, node: n, pods: bound, initialized: true, ...o };
}

export interface DaemonSetOptions {
  readonly cpu?: string;
  readonly memory?: string;
  readonly spec?: Record<string, unknown>;
}

/** A DaemonSet whose pods request `cpu` (default 100m) and `memory` (default 128Mi). */
export function daemonSet(name: string, o: DaemonSetOptions = {}): DaemonSet {
  return daemonSetSchema.parse({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'kube-system' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            { name: 'd', resources: { requests: { cpu: o.cpu ?? '100m', memory: o.memory ?? '128Mi' } } },
          ],
          ...o.spec,
        },
      },
    },
  });
}

export interface InputOptions {
  readonly pods: readonly Pod[];
  readonly nodePools?: readonly NodePool[];
  /** Types for every NodePool, or per NodePool name. */
  readonly types?: readonly InstanceType[] | ReadonlyMap<string, readonly InstanceType[]>;
  readonly existing?: readonly ExistingCapacity[];
  readonly daemonSets?: readonly DaemonSet[];
  readonly options?: SolverOptions;
  readonly extra?: Partial<SolverInput>;
}

/** A solver input; by default one NodePool `default` with three types (small, medium, large). */
export function solverInput(o: InputOptions): SolverInput {
  const nodePools = o.nodePools ?? [nodePool('default')];
  const types = o.types ?? standardTypes();
  const instanceTypes =
    types instanceof Map
      ? (types as ReadonlyMap<string, readonly InstanceType[]>)
      : new Map(nodePools.map((np) => [np.metadata.name!, types as readonly InstanceType[]]));
  return {
    pods: o.pods,
    existing: o.existing ?? [],
    daemonSets: o.daemonSets ?? [],
    nodePools,
    instanceTypes,
    ...(o.options === undefined ? {} : { options: o.options }),
    ...o.extra,
  };
}

/** small (2 cpu, 4Gi, $0.1), medium (4 cpu, 16Gi, $0.2), large (16 cpu, 64Gi, $0.8). */
export function standardTypes(): InstanceType[] {
  return [
    instanceType('small', { cpu: '2', memory: '4Gi', price: 0.1 }),
    instanceType('medium', { cpu: '4', memory: '16Gi', price: 0.2 }),
    instanceType('large', { cpu: '16', memory: '64Gi', price: 0.8 }),
  ];
}
