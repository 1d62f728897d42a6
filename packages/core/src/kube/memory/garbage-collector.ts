import { isNotFound } from '../errors.js';
import { cloneJson } from '../json.js';
import type { KubeObject, OwnerReference } from '../object.js';
import { type ResourceType, typeKey } from '../resource-type.js';
import type { ClusterInternals } from './internals.js';
import { CONTROLLER_MANAGER } from './internals.js';
import type { Change } from './object-store.js';
import { storeKey } from './object-store.js';
import type { WorkTracker } from './work-tracker.js';

/** Finalizer that makes deletion orphan dependents (propagationPolicy Orphan). */
export const ORPHAN_FINALIZER = 'orphan';
/** Finalizer that holds an owner until its blocking dependents are gone (propagationPolicy Foreground). */
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

type Item = { readonly kind: 'dependent' | 'owner' | 'ownerGone'; readonly uid: string };

type OwnerState = 'solid' | 'dangling' | 'waiting' | 'unknown';

/**
 * Background garbage collection as kube-controller-manager does it, driven by committed
 * changes: a dependent all of whose owners are gone is deleted (through the normal delete
 * path, so its own finalizers hold it); references to owners that are gone are removed when
 * other owners remain; `orphan` owners release their dependents; `foregroundDeletion` owners
 * delete their dependents and wait for those with blockOwnerDeletion. Owners are matched by
 * uid, so a same-named successor does not adopt the dependents of its predecessor.
 */
export class GarbageCollector {
  readonly #cluster: ClusterInternals;
  readonly #tracker: WorkTracker;
  #queue: Item[] = [];
  #scheduled = false;

  constructor(cluster: ClusterInternals, tracker: WorkTracker) {
    this.#cluster = cluster;
    this.#tracker = tracker;
  }

  observe(change: Change): void {
    const obj = change.object;
    const uid = obj.metadata.uid;
    if (uid === undefined) return;
    if (change.op === 'delete') {
      this.#enqueue({ kind: 'ownerGone', uid });
      for (const ref of obj.metadata.ownerReferences ?? []) {
        if (ref.uid !== undefined) this.#enqueue({ kind: 'owner', uid: ref.uid });
      }
      return;
    }
    const refs = obj.metadata.ownerReferences ?? [];
    const before = change.previous?.metadata.ownerReferences ?? [];
    if (refs.length > 0 && (change.op === 'create' || JSON.stringify(refs) !== JSON.stringify(before))) {
      this.#enqueue({ kind: 'dependent', uid });
    }
    const finalizers = obj.metadata.finalizers ?? [];
    if (
      obj.metadata.deletionTimestamp !== undefined &&
      (finalizers.includes(ORPHAN_FINALIZER) || finalizers.includes(FOREGROUND_FINALIZER))
    ) {
      this.#enqueue({ kind: 'owner', uid });
    }
  }

  #enqueue(item: Item): void {
    this.#queue.push(item);
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#tracker.schedule(() => {
      this.#scheduled = false;
      while (this.#queue.length > 0) {
        const next = this.#queue.shift() as Item;
        try {
          this.#process(next);
        } catch (err) {
          if (!isNotFound(err)) this.#tracker.fail(err);
        }
      }
    });
  }

  #process(item: Item): void {
    switch (item.kind) {
      case 'ownerGone':
        for (const dep of this.#cluster.store.dependentsOf(item.uid)) {
          if (dep.object.metadata.uid !== undefined)
            this.#enqueue({ kind: 'dependent', uid: dep.object.metadata.uid });
        }
        return;
      case 'dependent':
        this.#processDependent(item.uid);
        return;
      case 'owner':
        this.#processOwner(item.uid);
        return;
    }
  }

  #processDependent(uid: string): void {
    const found = this.#cluster.store.byUid(uid);
    if (found === undefined) return;
    const obj = found.object;
    const refs = obj.metadata.ownerReferences ?? [];
    if (refs.length === 0) return;
    const states = refs.map((ref) => [ref, this.#ownerState(ref, obj)] as const);
    const solid = states.filter(([, s]) => s === 'solid' || s === 'unknown');
    const release = states.filter(([, s]) => s === 'dangling' || s === 'waiting').map(([ref]) => ref.uid);
    const type = this.#typeOf(found.typeKey);
    if (solid.length > 0) {
      if (release.length === 0) return;
      const next = cloneJson(obj);
      next.metadata.ownerReferences = refs.filter((ref) => !release.includes(ref.uid));
      this.#cluster.update(type, next, { fieldManager: CONTROLLER_MANAGER });
      return;
    }
    const waiting = states.some(([, s]) => s === 'waiting');
    const hasDependents = this.#cluster.store.dependentsOf(uid).length > 0;
    this.#cluster.delete(type, keyOf(obj), {
      propagationPolicy: waiting && hasDependents ? 'Foreground' : 'Background',
    });
  }

  #processOwner(uid: string): void {
    const found = this.#cluster.store.byUid(uid);
    if (found === undefined || found.object.metadata.deletionTimestamp === undefined) return;
    const type = this.#typeOf(found.typeKey);
    const finalizers = found.object.metadata.finalizers ?? [];
    if (finalizers.includes(ORPHAN_FINALIZER)) {
      for (const dep of this.#cluster.store.dependentsOf(uid)) {
        const next = cloneJson(dep.object);
        next.metadata.ownerReferences = (next.metadata.ownerReferences ?? []).filter(
          (ref) => ref.uid !== uid,
        );
        this.#cluster.update(this.#typeOf(dep.typeKey), next, { fieldManager: CONTROLLER_MANAGER });
      }
      this.#removeFinalizer(type, uid, ORPHAN_FINALIZER);
      return;
    }
    if (finalizers.includes(FOREGROUND_FINALIZER)) {
      const deps = this.#cluster.store.dependentsOf(uid);
      for (const dep of deps) {
        const depUid = dep.object.metadata.uid;
        if (depUid !== undefined && dep.object.metadata.deletionTimestamp === undefined) {
          this.#enqueue({ kind: 'dependent', uid: depUid });
        }
      }
      const blocking = deps.some((dep) =>
        (dep.object.metadata.ownerReferences ?? []).some(
          (ref) => ref.uid === uid && ref.blockOwnerDeletion === true,
        ),
      );
      if (!blocking) this.#removeFinalizer(type, uid, FOREGROUND_FINALIZER);
    }
  }

  #removeFinalizer(type: ResourceType, uid: string, finalizer: string): void {
    const found = this.#cluster.store.byUid(uid);
    if (found === undefined) return;
    const next = cloneJson(found.object);
    next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    this.#cluster.update(type, next, { fieldManager: CONTROLLER_MANAGER });
  }

  #ownerState(ref: OwnerReference, dependent: KubeObject): OwnerState {
    const policy = this.#cluster.kinds.lookupGroupKind(ref.apiVersion, ref.kind);
    if (policy === undefined) return 'unknown';
    const namespace = dependent.metadata.namespace;
    // A namespaced owner cannot own a cluster-scoped dependent: the reference is dangling.
    if (policy.type.namespaced && namespace === undefined) return 'dangling';
    const owner = this.#cluster.store.get(
      typeKey(policy.type),
      storeKey(policy.type.namespaced ? namespace : undefined, ref.name),
    );
    if (owner === undefined || owner.metadata.uid !== ref.uid) return 'dangling';
    if (
      owner.metadata.deletionTimestamp !== undefined &&
      (owner.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER)
    ) {
      return 'waiting';
    }
    return 'solid';
  }

  #typeOf(key: string): ResourceType {
    const policy = this.#cluster.kinds.byTypeKey(key);
    if (policy === undefined) throw new Error(`unknown kind ${key}`);
    return policy.type;
  }
}

function keyOf(obj: KubeObject): { name: string; namespace?: string } {
  const name = obj.metadata.name as string;
  return obj.metadata.namespace === undefined ? { name } : { name, namespace: obj.metadata.namespace };
}
