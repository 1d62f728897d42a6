import type { Pod } from '../../apis/kubernetes/pod.js';
import { Labels } from '../../apis/labels.js';
import { isPodTerminal } from '../../kube/pod.js';
import type { HostPort } from '../pod/host-ports.js';
import { podHostPorts } from '../pod/host-ports.js';
import { daemonSetOwner, hostnameOf } from '../pod/identity.js';
import { podRequests } from '../pod/requests.js';
import { Requirements } from '../requirements/requirements.js';
import { addResources, parseResourceList, type ResourceList } from '../resources/resource-list.js';
import { type ResourceSlots, ResourceVector } from '../resources/resource-vector.js';
import type { TaintLike } from '../taints/tolerations.js';
import type { CountedPod, TopologyNode } from '../topology/topology.js';
import { type DaemonPod, daemonRunsOn } from './daemon-overhead.js';
import type { ExistingCapacity } from './types.js';

/** Taints a node carries only while it starts; an uninitialized node will lose them. */
const EphemeralTaintKeys: ReadonlySet<string> = new Set([
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
  'node.cloudprovider.kubernetes.io/uninitialized',
  'karpenter.sh/unregistered',
]);

const Unschedulable: TaintLike = Object.freeze({
  key: 'node.kubernetes.io/unschedulable',
  effect: 'NoSchedule',
});

/** Existing capacity as the solver sees it, before any pod of this solve lands. */
export interface PreparedExisting {
  readonly capacity: ExistingCapacity;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly requirements: Requirements;
  readonly taints: readonly TaintLike[];
  readonly hostname: string;
  readonly available: ResourceVector;
  readonly ports: HostPort[];
  readonly topologyNode: TopologyNode;
  /** The bound pods that still count (not finished). */
  readonly pods: readonly Pod[];
  // Derived from `pods` here rather than in every solve: a disruption pass solves once per
  // candidate over the same prepared capacity, and walking every bound pod of the cluster in
  // each solve was most of what a failing single-node attempt cost.
  /** The namespaces of `pods`, each once. */
  readonly namespaces: readonly string[];
  /** `pods` not being deleted, as topology counts them. */
  readonly counted: readonly CountedPod[];
  /** `pods` not being deleted that carry required pod anti-affinity. */
  readonly antiAffine: readonly Pod[];
}

function sameTaint(a: TaintLike, b: TaintLike): boolean {
  return a.key === b.key && a.effect === b.effect && (a.value ?? '') === (b.value ?? '');
}

/**
 * The taints that keep pods off: the Node's (or, before it is initialized, its NodeClaim's),
 * without startup taints and the taints nodes carry while booting when it is not initialized
 * yet; a cordoned node also refuses new pods.
 */
export function effectiveTaints(c: ExistingCapacity): TaintLike[] {
  const claimSpec = c.nodeClaim?.spec;
  const base: TaintLike[] =
    c.node !== undefined && (c.initialized || claimSpec === undefined)
      ? [...(c.node.spec.taints ?? [])]
      : [...(claimSpec?.taints ?? [])];
  let out = base;
  if (!c.initialized) {
    const startup = claimSpec?.startupTaints ?? [];
    out = base.filter((t) => !EphemeralTaintKeys.has(t.key) && !startup.some((s) => sameTaint(s, t)));
  }
  if (c.node?.spec.unschedulable === true && !out.some((t) => t.key === Unschedulable.key))
    out.push(Unschedulable);
  return out;
}

/** Labels of the capacity: the Node's, or an in-flight claim's labels plus its single-valued requirements. */
export function capacityLabels(c: ExistingCapacity): Record<string, string> {
  if (c.node !== undefined) return { ...(c.node.metadata.labels ?? {}) };
  const out: Record<string, string> = { ...(c.nodeClaim?.metadata.labels ?? {}) };
  const reqs = Requirements.fromNodeSelectorRequirements(c.nodeClaim?.spec.requirements);
  for (const [k, v] of Object.entries(reqs.labels())) if (out[k] === undefined) out[k] = v;
  return out;
}

function capacityRequirements(c: ExistingCapacity, labels: Readonly<Record<string, string>>): Requirements {
  if (c.node !== undefined) return Requirements.fromLabels(labels);
  return Requirements.fromNodeSelectorRequirements(c.nodeClaim?.spec.requirements).addAll(
    Requirements.fromLabels(c.nodeClaim?.metadata.labels),
  );
}

/** What the capacity can hold: its Node's allocatable (or capacity), else its NodeClaim's allocatable. */
export function capacityAllocatable(c: ExistingCapacity): ResourceList {
  const status = c.node?.status;
  if (status?.allocatable !== undefined) return parseResourceList(status.allocatable);
  if (status?.capacity !== undefined) return parseResourceList(status.capacity);
  return parseResourceList(c.nodeClaim?.status?.allocatable);
}

/**
 * Prepares one piece of existing capacity: what is still free after its bound pods and after the
 * DaemonSets that will run there but have no pod yet (as Karpenter reserves their room on
 * in-flight nodes), which host ports are taken, and how topology sees it. `requestsOf` is
 * podRequests, or a memo of it.
 */
export function prepareExisting(
  c: ExistingCapacity,
  daemons: readonly DaemonPod[],
  slots: ResourceSlots,
  requestsOf: (pod: Pod) => ResourceList = podRequests,
): PreparedExisting {
  const labels = capacityLabels(c);
  const requirements = capacityRequirements(c, labels);
  const taints = effectiveTaints(c);
  const hostname = c.node !== undefined ? hostnameOf(c.name, labels) : (labels[Labels.Hostname] ?? c.name);
  const pods = c.pods.filter((p) => !isPodTerminal(p));
  let used: ResourceList = new Map();
  const ports: HostPort[] = [];
  const present = new Set<string>();
  for (const p of pods) {
    used = addResources(used, requestsOf(p));
    ports.push(...podHostPorts(p));
    const owner = daemonSetOwner(p);
    if (owner !== undefined) present.add(`${p.metadata.namespace ?? 'default'}/${owner}`);
  }
  for (const d of daemons) {
    if (present.has(d.name)) continue;
    if (!daemonRunsOn(d, taints, requirements, false)) continue;
    used = addResources(used, d.requests);
  }
  const available = ResourceVector.fromList(capacityAllocatable(c), slots).subInPlace(
    ResourceVector.fromList(used, slots),
  );
  const topologyNode: TopologyNode = {
    hostname,
    labels,
    requirements,
    taints,
    registered: c.node !== undefined,
  };
  const namespaces = new Set<string>();
  const counted: CountedPod[] = [];
  const antiAffine: Pod[] = [];
  for (const p of pods) {
    const namespace = p.metadata.namespace ?? 'default';
    namespaces.add(namespace);
    if (p.metadata.deletionTimestamp !== undefined) continue;
    counted.push({ namespace, labels: p.metadata.labels, node: topologyNode });
    if ((p.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length > 0)
      antiAffine.push(p);
  }
  return {
    capacity: c,
    name: c.name,
    labels,
    requirements,
    taints,
    hostname,
    available,
    ports,
    pods,
    topologyNode,
    namespaces: [...namespaces],
    counted,
    antiAffine,
  };
}

/**
 * The positions of existing capacity in the order pods try it: initialized first, then by name;
 * ties keep their order.
 */
export function existingOrder(items: readonly { readonly capacity: ExistingCapacity }[]): number[] {
  return items
    .map((_, i) => i)
    .sort((i, j) => {
      const a = items[i]!.capacity;
      const b = items[j]!.capacity;
      if (a.initialized !== b.initialized) return a.initialized ? -1 : 1;
      return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    });
}
