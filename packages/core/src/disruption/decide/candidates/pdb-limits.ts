import type { LabelSelector } from '../../../apis/kubernetes/label-selector.js';
import { matchesLabelSelector } from '../../../apis/kubernetes/label-selector.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import type { PodDisruptionBudget } from '../../../apis/kubernetes/pod-disruption-budget.js';
import { type ControllerScale, computeDisruptionBudgetStatus } from '../../../kube/disruption-budget.js';
import type { PodLike } from '../../../kube/pod.js';
import { isPodReady } from '../../../kube/pod.js';
import { podKey } from '../../../scheduling/pod/identity.js';
import { isEvictablePod } from './pods.js';

/** One PDB as disruption consults it. */
export interface PdbLimit {
  /** `namespace/name`. */
  readonly key: string;
  readonly namespace: string;
  readonly selector: LabelSelector | null | undefined;
  readonly disruptionsAllowed: number;
  /** `unhealthyPodEvictionPolicy: AlwaysAllow`: pods that are not Ready may always be evicted. */
  readonly alwaysAllowUnhealthy: boolean;
}

function controllerOf(pod: PodLike): { kind: string; name: string; uid?: string } | undefined {
  const owners = pod.metadata.ownerReferences ?? [];
  return owners.find((o) => o.controller === true) ?? owners[0];
}

/**
 * The PDBs of a pass, indexed so a pod's PDBs are found from its labels rather than by trying
 * every PDB: at 100,000 pods and thousands of PDBs the scan was most of a pass.
 */
export class PdbLimits {
  /** Every PDB, in the snapshot's order. */
  readonly all: readonly PdbLimit[];
  /**
   * Every PDB's name, selector and eviction policy, as one string: equal for two passes whose
   * PDBs select the same pods the same way, whatever each allows now (see pdbMatches).
   */
  readonly selectors: string;
  // Per namespace: PDBs keyed by one of their matchLabels pairs (each PDB under exactly one),
  // and those without matchLabels, which any pod of the namespace may match.
  readonly #byNamespace = new Map<string, { byLabel: Map<string, number[]>; anyPod: number[] }>();

  constructor(all: readonly PdbLimit[]) {
    this.all = all;
    this.selectors = all
      .map((l) => `${l.key}\u0000${JSON.stringify(l.selector)}\u0000${l.alwaysAllowUnhealthy}`)
      .join('\n');
    for (const [i, l] of all.entries()) {
      // An absent selector selects nothing, so no pod can find it.
      if (l.selector === undefined || l.selector === null) continue;
      let ns = this.#byNamespace.get(l.namespace);
      if (ns === undefined) {
        ns = { byLabel: new Map(), anyPod: [] };
        this.#byNamespace.set(l.namespace, ns);
      }
      const first = Object.entries(l.selector.matchLabels ?? {})[0];
      if (first === undefined) ns.anyPod.push(i);
      else {
        const key = labelKey(first[0], first[1]);
        const bucket = ns.byLabel.get(key);
        if (bucket === undefined) ns.byLabel.set(key, [i]);
        else bucket.push(i);
      }
    }
  }

  /** The PDBs that select the pod (its namespace, its labels), in the snapshot's order. */
  matching(pod: PodLike): PdbLimit[] {
    return this.matchingIndexes(pod).map((i) => this.all[i]!);
  }

  /** `matching` as indexes into `all`. */
  matchingIndexes(pod: PodLike): number[] {
    const ns = this.#byNamespace.get(pod.metadata.namespace ?? 'default');
    if (ns === undefined) return [];
    const labels = pod.metadata.labels ?? {};
    const found: number[] = [...ns.anyPod];
    for (const [key, value] of Object.entries(labels)) {
      const bucket = ns.byLabel.get(labelKey(key, value));
      if (bucket !== undefined) found.push(...bucket);
    }
    if (found.length > 1) found.sort((a, b) => a - b);
    return found.filter((i) => matchesLabelSelector(this.all[i]!.selector, labels));
  }
}

function labelKey(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

/**
 * The PDBs with their allowed disruptions: `status.disruptionsAllowed` where the snapshot has
 * it (the live value the Eviction API uses), otherwise computed over the snapshot's pods as
 * kube-controller-manager would, taking each controller's replicas to be its pods present.
 */
export function pdbLimits(
  pdbs: readonly PodDisruptionBudget[],
  pods: readonly Pod[],
  now: number,
): PdbLimits {
  const unresolved = pdbs.map((pdb): PdbLimit => {
    const namespace = pdb.metadata.namespace ?? 'default';
    return {
      key: `${namespace}/${pdb.metadata.name}`,
      namespace,
      selector: pdb.spec.selector,
      disruptionsAllowed: pdb.status?.disruptionsAllowed ?? 0,
      alwaysAllowUnhealthy: pdb.spec.unhealthyPodEvictionPolicy === 'AlwaysAllow',
    };
  });
  if (pdbs.every((pdb) => pdb.status?.disruptionsAllowed !== undefined)) return new PdbLimits(unresolved);
  // The pods each PDB without a status selects, found through the index in one walk of the pods.
  const index = new PdbLimits(unresolved);
  const selected = new Map<PdbLimit, Pod[]>();
  for (const p of pods) {
    for (const l of index.matching(p)) {
      const list = selected.get(l);
      if (list === undefined) selected.set(l, [p]);
      else list.push(p);
    }
  }
  return new PdbLimits(
    pdbs.map((pdb, i) => {
      const limit = unresolved[i]!;
      if (pdb.status?.disruptionsAllowed !== undefined) return limit;
      const mine = selected.get(limit) ?? [];
      const replicas = new Map<string, number>();
      const id = (o: { kind: string; name: string; uid?: string }) => o.uid ?? `${o.kind}/${o.name}`;
      for (const p of mine) {
        const c = controllerOf(p);
        if (c !== undefined) replicas.set(id(c), (replicas.get(id(c)) ?? 0) + 1);
      }
      const scale = (p: PodLike): ControllerScale => {
        const c = controllerOf(p);
        return c === undefined ? 'unmanaged' : { uid: id(c), replicas: replicas.get(id(c)) ?? 0 };
      };
      return {
        ...limit,
        disruptionsAllowed: computeDisruptionBudgetStatus(pdb, mine, scale, now).disruptionsAllowed,
      };
    }),
  );
}

/** An evictable pod and the PDBs (indexes into `PdbLimits.all`) that hold it back when they allow nothing. */
export interface PodPdbMatch {
  readonly pod: Pod;
  readonly limits: readonly number[];
}

/**
 * The pods a drain would evict, each with the PDBs that select it and count for it (with
 * AlwaysAllow, a pod that is not Ready is not held back): what pdbBlock reads besides the PDBs'
 * allowed disruptions, which change far more often than their selectors.
 */
export function pdbMatches(pods: readonly Pod[], limits: PdbLimits): PodPdbMatch[] {
  const out: PodPdbMatch[] = [];
  for (const pod of pods) {
    if (!isEvictablePod(pod)) continue;
    const matching: number[] = [];
    for (const i of limits.matchingIndexes(pod)) {
      if (limits.all[i]!.alwaysAllowUnhealthy && !isPodReady(pod)) continue;
      matching.push(i);
    }
    if (matching.length > 0) out.push({ pod, limits: matching });
  }
  return out;
}

/**
 * Why the PDBs keep these pods from being evicted, or undefined (Karpenter's CanEvictPods): a
 * pod the drain would evict whose PDB allows no disruption, or that several PDBs select (the
 * Eviction API refuses those). With AlwaysAllow, a pod that is not Ready is not held back.
 */
export function pdbBlock(pods: readonly Pod[], limits: PdbLimits): string | undefined {
  return pdbBlockOf(pdbMatches(pods, limits), limits);
}

/** pdbBlock over matches found before (`pdbMatches`, under PDBs with the same `selectors`). */
export function pdbBlockOf(matches: readonly PodPdbMatch[], limits: PdbLimits): string | undefined {
  for (const { pod, limits: indexes } of matches) {
    for (const i of indexes) {
      const l = limits.all[i]!;
      if (l.disruptionsAllowed <= 0)
        return `pod ${podKey(pod)} is protected by PodDisruptionBudget ${l.key} (0 disruptions allowed)`;
    }
    if (indexes.length > 1) {
      return `pod ${podKey(pod)} is selected by several PodDisruptionBudgets (${indexes.map((i) => limits.all[i]!.key).join(', ')}); the Eviction API evicts it under one only`;
    }
  }
  return undefined;
}
