import type { Pod } from '../../apis/kubernetes/pod.js';
import type { Toleration } from '../../apis/kubernetes/taint.js';
import type { HostPort } from '../pod/host-ports.js';
import { nodeSelectorTermRequirements, podNodeRequirements } from '../pod/node-requirements.js';
import { Requirements } from '../requirements/requirements.js';
import type { ResourceList } from '../resources/resource-list.js';
import type { ResourceVector } from '../resources/resource-vector.js';
import { type TaintLike, untoleratedTaint } from '../taints/tolerations.js';
import {
  affinitySpec,
  type GroupOwner,
  type NamespaceResolver,
  spreadSpec,
} from '../topology/group-specs.js';
import type { TopologyGroup, TopologyGroupSpec } from '../topology/topology-group.js';
import type { VolumeRequirement } from '../volumes/volume-topology.js';
import type { PodView } from './preferences.js';

/**
 * One way a pod's node requirements can be met: its nodeSelector, current required node affinity
 * term and (unless strict) heaviest preference, AND one alternative of each volume's topology.
 */
export interface RequirementOption {
  /** Everything treated as required right now (preferences included). */
  readonly requirements: Requirements;
  /** Without preferences: what topology uses for the pod's own domains. */
  readonly strict: Requirements;
  /**
   * `strict` without the volume part: the domains a topology spread counts for its minimum
   * (kube-scheduler's nodeAffinityPolicy Honor reads the pod's node affinity, not its volumes,
   * which only narrow where this pod itself may go).
   */
  readonly own: Requirements;
  /** The volume part alone (empty without volume topology), to tell volume conflicts apart. */
  readonly volume: Requirements;
}

/** How a variant takes part in one topology group it owns. */
export interface GroupUse {
  readonly group: TopologyGroup;
  /** Whether the group selects the pod itself (so placing it adds to the count). */
  readonly self: boolean;
  /** Spread with nodeAffinityPolicy Honor (and every affinity term): the pod's own domains bound the minimum. */
  readonly honorAffinity: boolean;
}

/**
 * Pods whose scheduling-relevant spec, labels and namespace are identical: they are
 * interchangeable for every decision, so everything derived from the spec is computed once.
 */
export interface PodClass {
  readonly id: number;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>> | undefined;
  readonly requests: ResourceList;
  readonly vector: ResourceVector;
  readonly hostPorts: readonly HostPort[];
  readonly volumes: readonly VolumeRequirement[];
  /** Forward groups that count pods of this class (grows when relaxation creates groups). */
  readonly countedBy: TopologyGroup[];
  /** Inverse anti-affinity groups (other pods' required anti-affinity) that select this class. */
  readonly repelledBy: TopologyGroup[];
  /** The first pod of the class: its spec is every pod's spec. */
  readonly exemplar: Pod;
}

/** What one relaxation step of a class looks like to the solver. Built lazily, shared by its pods. */
export class Variant {
  readonly id: number;
  readonly cls: PodClass;
  readonly view: PodView;
  /** How many relaxation steps led here. */
  readonly depth: number;
  readonly options: readonly RequirementOption[];
  readonly tolerations: readonly Toleration[];
  readonly uses: readonly GroupUse[];
  /** Inverse groups for this pod's required anti-affinity: its placements are recorded there. */
  readonly repels: readonly TopologyGroup[];
  /** Per NodePool index: the NodePool taint this variant does not tolerate, or null. */
  readonly untolerated: (TaintLike | null)[];
  /** Per claim id: 1 once the claim refused this variant for a reason that cannot go away. */
  rejectedClaims = new Uint8Array(16);
  /** Per existing target index: 1 once it refused this variant for good. */
  rejectedExisting: Uint8Array;
  /** Per NodePool index: the cached start of a new claim for this variant. */
  readonly fresh: unknown[];
  /** The next relaxation step: undefined until computed, null when nothing is left. */
  next: Variant | null | undefined;

  constructor(
    id: number,
    cls: PodClass,
    view: PodView,
    depth: number,
    parts: {
      options: readonly RequirementOption[];
      uses: readonly GroupUse[];
      repels: readonly TopologyGroup[];
      poolTaints: readonly (readonly TaintLike[])[];
      existingCount: number;
    },
  ) {
    this.id = id;
    this.cls = cls;
    this.view = view;
    this.depth = depth;
    this.options = parts.options;
    this.tolerations = view.tolerations;
    this.uses = parts.uses;
    this.repels = parts.repels;
    this.untolerated = parts.poolTaints.map((t) => untoleratedTaint(t, view.tolerations) ?? null);
    this.rejectedExisting = new Uint8Array(parts.existingCount);
    this.fresh = parts.poolTaints.map(() => undefined);
  }

  isRejectedClaim(id: number): boolean {
    return id < this.rejectedClaims.length && this.rejectedClaims[id] === 1;
  }

  rejectClaim(id: number): void {
    if (id >= this.rejectedClaims.length) {
      let n = this.rejectedClaims.length;
      while (n <= id) n *= 2;
      const grown = new Uint8Array(n);
      grown.set(this.rejectedClaims);
      this.rejectedClaims = grown;
    }
    this.rejectedClaims[id] = 1;
  }
}

/** Most requirement alternatives kept per variant (volume terms multiply). */
const MAX_OPTIONS = 16;

function volumeAlternatives(volumes: readonly VolumeRequirement[]): Requirements[] {
  let out: Requirements[] = [new Requirements()];
  for (const v of volumes) {
    const next: Requirements[] = [];
    for (const base of out) {
      for (const alt of v.alternatives) {
        if (next.length < MAX_OPTIONS) next.push(base.copy().addAll(alt));
      }
    }
    out = next;
  }
  return out;
}

/** Builds the requirement options of a view (throws RequirementError on a bad expression). */
export function requirementOptions(
  pod: Pod,
  view: PodView,
  volumes: readonly VolumeRequirement[],
): RequirementOption[] {
  const nodeSelector = pod.spec.nodeSelector;
  const loose = podNodeRequirements(nodeSelector, view.requiredTerms, view.preferredNodeTerms, false);
  const strict = podNodeRequirements(nodeSelector, view.requiredTerms, view.preferredNodeTerms, true);
  return volumeAlternatives(volumes).map((volume) => ({
    requirements: volume.size === 0 ? loose : loose.copy().addAll(volume),
    strict: volume.size === 0 ? strict : strict.copy().addAll(volume),
    own: strict,
    volume,
  }));
}

/**
 * nodeSelector AND each remaining required term, for spread node filters. Volume topology is
 * left out, as kube-scheduler does: it limits where the pod goes, not which nodes' pods count.
 */
export function nodeFilterTerms(pod: Pod, view: PodView): Requirements[] {
  const selector = Requirements.fromLabels(pod.spec.nodeSelector);
  const terms = view.requiredTerms;
  if (terms === undefined) return [selector];
  return terms.map((t) => selector.copy().addAll(nodeSelectorTermRequirements(t)));
}

/** The topology group specs a view owns, in the order Karpenter applies them. */
export function ownedGroupSpecs(
  cls: PodClass,
  view: PodView,
  filterTerms: readonly Requirements[],
  namespaces: NamespaceResolver,
): { spec: TopologyGroupSpec; honorAffinity: boolean }[] {
  const owner: GroupOwner = {
    namespace: cls.namespace,
    labels: cls.labels,
    tolerations: view.tolerations,
    nodeFilterTerms: filterTerms,
  };
  const out: { spec: TopologyGroupSpec; honorAffinity: boolean }[] = [];
  for (const c of view.spread) {
    out.push({ spec: spreadSpec(owner, c), honorAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor' });
  }
  for (const t of view.affinityRequired)
    out.push({ spec: affinitySpec(owner, t, 'affinity', namespaces), honorAffinity: true });
  for (const t of view.affinityPreferred) {
    out.push({ spec: affinitySpec(owner, t.podAffinityTerm, 'affinity', namespaces), honorAffinity: true });
  }
  for (const t of view.antiAffinityRequired) {
    out.push({ spec: affinitySpec(owner, t, 'anti-affinity', namespaces), honorAffinity: true });
  }
  for (const t of view.antiAffinityPreferred) {
    out.push({
      spec: affinitySpec(owner, t.podAffinityTerm, 'anti-affinity', namespaces),
      honorAffinity: true,
    });
  }
  return out;
}

/** The inverse group specs of a view's required anti-affinity terms. */
export function inverseGroupSpecs(
  cls: Pick<PodClass, 'namespace' | 'labels'>,
  view: Pick<PodView, 'antiAffinityRequired' | 'tolerations'>,
  namespaces: NamespaceResolver,
): TopologyGroupSpec[] {
  const owner: GroupOwner = {
    namespace: cls.namespace,
    labels: cls.labels,
    tolerations: view.tolerations,
    nodeFilterTerms: [],
  };
  return view.antiAffinityRequired.map((t) => affinitySpec(owner, t, 'anti-affinity', namespaces));
}
