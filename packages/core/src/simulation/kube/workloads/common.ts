import type { Pod } from '../../../apis/kubernetes/pod.js';
import { isConflict, isNotFound } from '../../../kube/errors.js';
import { cloneJson } from '../../../kube/json.js';
import type { MemoryCluster } from '../../../kube/memory/memory-cluster.js';
import { controllerOf, type KubeObject, type OwnerReference } from '../../../kube/object.js';
import type { ResourceType } from '../../../kube/resource-type.js';
import { Pods } from '../../../kube/resource-types.js';
import type { Watch } from '../../../kube/watch.js';
import { ObjectCache } from '../object-cache.js';
import type { ReconcileQueue } from '../reconcile-queue.js';

/** Field manager of the workload controllers' writes, as upstream's. */
export const CONTROLLER_MANAGER = 'kube-controller-manager';

/** A pod template as workload specs carry it (plain JSON; the API server validated it). */
export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: Pod['spec'];
}

/** The cache key of the object's controller of the given kind, when it has one. */
export function ownerKey(obj: KubeObject | undefined, kind: string): string | undefined {
  if (obj === undefined) return undefined;
  const ref = controllerOf(obj);
  if (ref?.kind !== kind) return undefined;
  return obj.metadata.namespace === undefined ? ref.name : `${obj.metadata.namespace}/${ref.name}`;
}

/** Whether `owner` is the object's controller (by uid, so a same-named successor is not). */
export function isControlledBy(obj: KubeObject, owner: KubeObject): boolean {
  const uid = owner.metadata.uid;
  return uid !== undefined && controllerOf(obj)?.uid === uid;
}

/** The controller reference a workload puts on what it creates. */
export function controllerRef(owner: KubeObject, apiVersion: string, kind: string): OwnerReference {
  return {
    apiVersion,
    kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Neither finished nor being deleted: the pod counts toward its controller's replicas. */
export function isActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return pod.metadata.deletionTimestamp === undefined && phase !== 'Succeeded' && phase !== 'Failed';
}

export function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * A short, stable hash of a pod template, for `pod-template-hash` and
 * `controller-revision-hash`: FNV-1a over the template's canonical JSON, encoded in the
 * alphabet Kubernetes uses for generated names. Deterministic across runs; not the value
 * kube-controller-manager would compute (that hashes Go's in-memory form).
 */
export function templateHash(template: unknown): string {
  const text = canonical(template);
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  let out = '';
  for (const digit of String(h >>> 0)) out += SAFE_ALPHABET[Number(digit) % SAFE_ALPHABET.length];
  return out;
}

/** Starts a watch that feeds a cache and enqueues the keys a change concerns. */
export function watchInto<T extends KubeObject>(
  cluster: MemoryCluster,
  type: ResourceType,
  cache: ObjectCache<T>,
  queue: ReconcileQueue,
  keysFor: (previous: T | undefined, current: T | undefined) => readonly (string | undefined)[],
): Watch {
  return cluster.watch<T>(type, (event) => {
    const { changed, previous, current } = cache.apply(event);
    if (!changed) return undefined;
    const keys = keysFor(previous, current).filter((k): k is string => k !== undefined);
    return keys.length > 0 ? queue.enqueue(...keys) : undefined;
  });
}

/** Splits a cache key into an ObjectKey. */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** Creates a pod and records it in the cache at once, so the next reconcile counts it. */
export async function createPod(cluster: MemoryCluster, cache: ObjectCache<Pod>, pod: Pod): Promise<Pod> {
  const created = await cluster.create<Pod>(Pods, pod, { fieldManager: CONTROLLER_MANAGER });
  cache.observe(created);
  return created;
}

/** Deletes a pod (if still there) and records the outcome in the cache at once. */
export async function deletePod(cluster: MemoryCluster, cache: ObjectCache<Pod>, pod: Pod): Promise<void> {
  try {
    const result = await cluster.delete<Pod>(
      Pods,
      { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? 'default' },
      { preconditions: { uid: pod.metadata.uid ?? '' } },
    );
    if (result.deleted) cache.remove(result.object);
    else cache.observe(result.object);
  } catch (err) {
    // Gone already, or replaced by a same-named pod (the uid precondition): nothing to delete.
    if (!isNotFound(err) && !isConflict(err)) throw err;
    if (isNotFound(err)) cache.remove(pod);
  }
}

/** A pod cache indexed by controller uid, for `podsOf`, counting each owner's active and ready pods. */
export function podCache(): ObjectCache<Pod> {
  return new ObjectCache<Pod>({
    index: (pod) => controllerOf(pod)?.uid,
    counts: { active: isActive, activeReady: (pod) => isActive(pod) && isReady(pod) },
  });
}

/**
 * How many of an owner's pods in a `podCache` are active and how many of those are ready: the
 * lengths of `podsOf(...).filter(isActive)` and of its ready part, without listing them.
 */
export function activeCounts(cache: ObjectCache<Pod>, owner: KubeObject): { active: number; ready: number } {
  const uid = owner.metadata.uid;
  if (uid === undefined) return { active: 0, ready: 0 };
  return { active: cache.countByIndex(uid, 'active'), ready: cache.countByIndex(uid, 'activeReady') };
}

/** The pods a `podCache` holds for an owner (by controller uid), sorted by key. */
export function podsOf(cache: ObjectCache<Pod>, owner: KubeObject): Pod[] {
  const uid = owner.metadata.uid;
  return uid === undefined ? [] : cache.byIndex(uid);
}

/** A pod stamped from a template: its labels and annotations, the owner, a generated name. */
export function podFromTemplate(
  template: PodTemplate,
  owner: KubeObject,
  ref: OwnerReference,
  extra: { labels?: Record<string, string>; finalizers?: string[]; spec?: Partial<Pod['spec']> } = {},
): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${owner.metadata.name}-`,
      namespace: owner.metadata.namespace ?? 'default',
      labels: { ...(template.metadata?.labels ?? {}), ...(extra.labels ?? {}) },
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [ref],
      ...(extra.finalizers ? { finalizers: extra.finalizers } : {}),
    } as unknown as Pod['metadata'],
    spec: { ...cloneJson(template.spec), ...(extra.spec ?? {}) },
  };
}
