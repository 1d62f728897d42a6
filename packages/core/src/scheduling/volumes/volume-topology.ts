import type { NodeSelectorTerm } from '../../apis/kubernetes/node-selector.js';
import type { PersistentVolume } from '../../apis/kubernetes/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../apis/kubernetes/persistent-volume-claim.js';
import type { Pod, Volume } from '../../apis/kubernetes/pod.js';
import type { StorageClass } from '../../apis/kubernetes/storage-class.js';
import { Labels } from '../../apis/labels.js';
import { Requirement } from '../requirements/requirement.js';
import { Requirements } from '../requirements/requirements.js';

/**
 * Where one of a pod's volumes can be used: the pod must land on a node satisfying one of
 * `alternatives` (ORed, like node selector terms). `source` names what imposes it, for reasons.
 */
export interface VolumeRequirement {
  readonly volume: string;
  /** e.g. `PersistentVolume pv-1` or `StorageClass zonal`. */
  readonly source: string;
  readonly alternatives: readonly Requirements[];
}

/** The topology a pod's volumes impose, or why it cannot be worked out (a missing object). */
export type VolumeTopologyResult =
  | { readonly ok: true; readonly requirements: readonly VolumeRequirement[] }
  | { readonly ok: false; readonly reason: string };

const NONE: VolumeTopologyResult = { ok: true, requirements: [] };

/** Lookups over the snapshot's claims, volumes and classes, built once per solve. */
export class VolumeIndex {
  readonly #claims = new Map<string, PersistentVolumeClaim>();
  readonly #volumes = new Map<string, PersistentVolume>();
  readonly #classes = new Map<string, StorageClass>();

  constructor(
    claims: readonly PersistentVolumeClaim[] = [],
    volumes: readonly PersistentVolume[] = [],
    classes: readonly StorageClass[] = [],
  ) {
    for (const c of claims) this.#claims.set(`${c.metadata.namespace ?? 'default'}/${c.metadata.name}`, c);
    for (const v of volumes) this.#volumes.set(v.metadata.name, v);
    for (const s of classes) this.#classes.set(s.metadata.name, s);
  }

  claim(namespace: string, name: string): PersistentVolumeClaim | undefined {
    return this.#claims.get(`${namespace}/${name}`);
  }

  volume(name: string): PersistentVolume | undefined {
    return this.#volumes.get(name);
  }

  storageClass(name: string): StorageClass | undefined {
    return this.#classes.get(name);
  }
}

function termsToAlternatives(terms: readonly NodeSelectorTerm[], dropHostname: boolean): Requirements[] {
  return terms.map((term) => {
    const exprs = (term.matchExpressions ?? []).filter((e) => !(dropHostname && e.key === Labels.Hostname));
    return Requirements.fromNodeSelectorRequirements(exprs);
  });
}

function persistentVolumeRequirement(volume: string, pv: PersistentVolume): VolumeRequirement | undefined {
  const terms = pv.spec.nodeAffinity?.required?.nodeSelectorTerms ?? [];
  if (terms.length === 0) return undefined;
  // A local or hostPath volume is pinned to its old node by hostname; the pod is rescheduled
  // precisely because that node is going, so only the volume's other constraints still bind.
  const spec = pv.spec as Record<string, unknown>;
  const local = spec.local !== undefined || spec.hostPath !== undefined;
  return {
    volume,
    source: `PersistentVolume ${pv.metadata.name}`,
    alternatives: termsToAlternatives(terms, local),
  };
}

function storageClassRequirement(volume: string, sc: StorageClass): VolumeRequirement | undefined {
  const terms = sc.allowedTopologies ?? [];
  if (terms.length === 0) return undefined;
  const alternatives = terms.map(
    (t) =>
      new Requirements((t.matchLabelExpressions ?? []).map((e) => Requirement.create(e.key, 'In', e.values))),
  );
  return { volume, source: `StorageClass ${sc.metadata.name}`, alternatives };
}

function volumeRequirement(
  pod: Pod,
  volume: Volume,
  index: VolumeIndex,
): VolumeRequirement | undefined | { reason: string } {
  const namespace = pod.metadata.namespace ?? 'default';
  let claim: PersistentVolumeClaim | undefined;
  let storageClassName: string | undefined;
  if (volume.persistentVolumeClaim !== undefined) {
    const name = volume.persistentVolumeClaim.claimName;
    claim = index.claim(namespace, name);
    if (claim === undefined)
      return { reason: `volume ${volume.name}: PersistentVolumeClaim ${namespace}/${name} not found` };
  } else if (volume.ephemeral !== undefined) {
    // The ephemeral controller names the claim <pod>-<volume>; before it exists, the template says it all.
    claim = index.claim(namespace, `${pod.metadata.name}-${volume.name}`);
    if (claim === undefined) storageClassName = volume.ephemeral.volumeClaimTemplate.spec.storageClassName;
  } else {
    return undefined;
  }
  if (claim !== undefined) {
    const volumeName = claim.spec.volumeName ?? '';
    if (volumeName !== '') {
      const pv = index.volume(volumeName);
      // Karpenter schedules on when the volume or class cannot be read; so does this.
      return pv === undefined ? undefined : persistentVolumeRequirement(volume.name, pv);
    }
    storageClassName = claim.spec.storageClassName;
  }
  if (storageClassName === undefined || storageClassName === '') return undefined;
  const sc = index.storageClass(storageClassName);
  return sc === undefined ? undefined : storageClassRequirement(volume.name, sc);
}

/**
 * The node constraints a pod's volumes impose, as Karpenter's volume topology does: a claim bound
 * to a volume with node affinity pins the pod to that affinity; an unbound claim (or an ephemeral
 * volume's template) whose StorageClass lists allowedTopologies restricts it to those. Unlike
 * Karpenter, every term is kept (as alternatives), not just the first. A claim that does not
 * exist makes the pod unschedulable (Karpenter ignores such pods); a missing volume or class
 * imposes nothing, as Karpenter carries on without them.
 *
 * @throws RequirementError for an expression the algebra cannot interpret.
 */
export function volumeTopology(pod: Pod, index: VolumeIndex): VolumeTopologyResult {
  const volumes = pod.spec.volumes ?? [];
  if (volumes.length === 0) return NONE;
  const out: VolumeRequirement[] = [];
  for (const v of volumes) {
    const r = volumeRequirement(pod, v, index);
    if (r === undefined) continue;
    if ('reason' in r) return { ok: false, reason: r.reason };
    out.push(r);
  }
  return out.length === 0 ? NONE : { ok: true, requirements: out };
}
