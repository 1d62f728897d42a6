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
 * The PDBs with their allowed disruptions: `status.disruptionsAllowed` where the snapshot has
 * it (the live value the Eviction API uses), otherwise computed over the snapshot's pods as
 * kube-controller-manager would, taking each controller's replicas to be its pods present.
 */
export function pdbLimits(
  pdbs: readonly PodDisruptionBudget[],
  pods: readonly Pod[],
  now: number,
): PdbLimit[] {
  return pdbs.map((pdb) => {
    const namespace = pdb.metadata.namespace ?? 'default';
    const selector = pdb.spec.selector;
    let allowed = pdb.status?.disruptionsAllowed;
    if (allowed === undefined) {
      const selected = pods.filter(
        (p) =>
          (p.metadata.namespace ?? 'default') === namespace &&
          matchesLabelSelector(selector, p.metadata.labels),
      );
      const replicas = new Map<string, number>();
      const id = (o: { kind: string; name: string; uid?: string }) => o.uid ?? `${o.kind}/${o.name}`;
      for (const p of selected) {
        const c = controllerOf(p);
        if (c !== undefined) replicas.set(id(c), (replicas.get(id(c)) ?? 0) + 1);
      }
      const scale = (p: PodLike): ControllerScale => {
        const c = controllerOf(p);
        return c === undefined ? 'unmanaged' : { uid: id(c), replicas: replicas.get(id(c)) ?? 0 };
      };
      allowed = computeDisruptionBudgetStatus(pdb, selected, scale, now).disruptionsAllowed;
    }
    return {
      key: `${namespace}/${pdb.metadata.name}`,
      namespace,
      selector,
      disruptionsAllowed: allowed,
      alwaysAllowUnhealthy: pdb.spec.unhealthyPodEvictionPolicy === 'AlwaysAllow',
    };
  });
}

/**
 * Why the PDBs keep these pods from being evicted, or undefined (Karpenter's CanEvictPods): a
 * pod the drain would evict whose PDB allows no disruption, or that several PDBs select (the
 * Eviction API refuses those). With AlwaysAllow, a pod that is not Ready is not held back.
 */
export function pdbBlock(pods: readonly Pod[], limits: readonly PdbLimit[]): string | undefined {
  for (const pod of pods) {
    if (!isEvictablePod(pod)) continue;
    const namespace = pod.metadata.namespace ?? 'default';
    const matching: PdbLimit[] = [];
    for (const l of limits) {
      if (l.namespace !== namespace || !matchesLabelSelector(l.selector, pod.metadata.labels)) continue;
      if (l.alwaysAllowUnhealthy && !isPodReady(pod)) continue;
      if (l.disruptionsAllowed <= 0)
        return `pod ${podKey(pod)} is protected by PodDisruptionBudget ${l.key} (0 disruptions allowed)`;
      matching.push(l);
    }
    if (matching.length > 1) {
      return `pod ${podKey(pod)} is selected by several PodDisruptionBudgets (${matching.map((l) => l.key).join(', ')}); the Eviction API evicts it under one only`;
    }
  }
  return undefined;
}
