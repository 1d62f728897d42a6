import type { LabelSelector } from '../apis/kubernetes/label-selector.js';
import type { EventInput } from './event.js';
import type { MergePatch } from './merge-patch.js';
import type { KubeObject, ObjectKey, Persisted, UntypedObject } from './object.js';
import type { ResourceType } from './resource-type.js';
import type { Watch, WatchHandler, WatchOptions } from './watch.js';

/** Narrows a list or watch. */
export interface SelectorOptions {
  /** Only this namespace; unset means all namespaces (ignored for cluster-scoped kinds). */
  readonly namespace?: string;
  /** String form (`app=web,tier in (a,b)`) or a structured `metav1.LabelSelector`. */
  readonly labelSelector?: string | LabelSelector;
  /**
   * `field=value` / `field!=value`, comma-separated. Every kind supports `metadata.name` and
   * `metadata.namespace`; pods also `spec.nodeName`, `spec.schedulerName`,
   * `spec.serviceAccountName`, `spec.restartPolicy`, `spec.hostNetwork`, `status.phase`,
   * `status.podIP`, `status.nominatedNodeName`; nodes `spec.unschedulable`; events
   * `involvedObject.*`, `reason`, `type`, `source`, `reportingComponent`; namespaces
   * `status.phase`. Others are a BadRequest. A missing field compares as `""`.
   */
  readonly fieldSelector?: string;
}

/** A list result: the items (sorted by namespace, then name) and the version they are consistent at. */
export interface ObjectList<T extends KubeObject> {
  readonly items: T[];
  /** Pass to `watch` to see exactly the changes after this list. */
  readonly resourceVersion: string;
}

/** Options of every write. */
export interface WriteOptions {
  /** Recorded in `metadata.managedFields`; adapters choose a default when unset. */
  readonly fieldManager?: string;
}

/** Options of a merge patch. */
export interface PatchOptions extends WriteOptions {
  /** Precondition: fail with Conflict unless the object is at this version. */
  readonly resourceVersion?: string;
}

/** Options of server-side apply. */
export interface ApplyOptions {
  /** Required: the owner of the applied fields. */
  readonly fieldManager: string;
  /** Take over fields other managers own instead of failing with Conflict. */
  readonly force?: boolean;
}

/** `metav1.DeleteOptions`. */
export interface DeleteOptions {
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  /**
   * What happens to dependents (objects whose ownerReferences name this one): `Background`
   * (default) deletes the owner now and dependents afterwards; `Foreground` keeps the owner
   * (finalizer `foregroundDeletion`) until blocking dependents are gone; `Orphan` strips the
   * owner reference from dependents and keeps them.
   */
  readonly propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  /** Pods only: overrides `spec.terminationGracePeriodSeconds`; 0 deletes immediately. */
  readonly gracePeriodSeconds?: number;
}

/** What a delete did. */
export interface DeleteResult<T extends KubeObject> {
  /** True when the object is gone; false when it stays (finalizers, graceful pod termination). */
  readonly deleted: boolean;
  /** Its last state: with `deletionTimestamp` set when it stays. */
  readonly object: T;
}

/** Options of a pod eviction (policy/v1 Eviction). */
export interface EvictOptions {
  /** Passed to the pod's deletion (grace period, preconditions). */
  readonly deleteOptions?: DeleteOptions;
}

/**
 * The one interface through which nodewright talks to Kubernetes. Objects are plain JSON
 * records; kinds are named by ResourceType. Results (and watch events' objects) are read-only:
 * a changed object is built from a copy (`{ ...node, spec: { ...node.spec, taints } }`), never by
 * changing a result. The in-memory adapter hands out its stored objects themselves, deeply
 * frozen and shared with every other reader, so a change throws a TypeError there; arguments are
 * never kept, so a caller may reuse what it passed in. Failures are KubeErrors (`isNotFound`,
 * `isConflict`, `isTooManyRequests`, ...).
 *
 * Semantics every adapter honours (the in-memory adapter documents its simplifications):
 * - `resourceVersion` is opaque and changes on every write; a stale one is a Conflict.
 * - For kinds with a status subresource, update/patch/apply ignore `status`, and
 *   updateStatus/patchStatus change nothing but `status`.
 * - Deletion sets `deletionTimestamp` while finalizers remain; no finalizer may be added to a
 *   deleting object; the object disappears when its last finalizer is removed.
 */
export interface ClusterPort {
  /** NotFound when absent. */
  get<T extends KubeObject>(type: ResourceType<T>, key: ObjectKey): Promise<T>;

  list<T extends KubeObject>(type: ResourceType<T>, options?: SelectorOptions): Promise<ObjectList<T>>;

  /** An informer-like subscription; see WatchOptions and Watch. */
  watch<T extends KubeObject>(type: ResourceType<T>, handler: WatchHandler<T>, options?: WatchOptions): Watch;

  /**
   * Creates an object. `metadata.name` or `generateName` is required; namespaced kinds default
   * to namespace `default`. The server fills uid, resourceVersion, generation and
   * creationTimestamp. AlreadyExists when the name is taken.
   */
  create<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>>;

  /**
   * Replaces an object. With `metadata.resourceVersion` set, a stale version is a Conflict;
   * unset is allowed for built-in kinds only (custom resources answer Invalid).
   */
  update<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>>;

  /** Replaces `status` only; same concurrency rules as update. NotFound for kinds without a status subresource. */
  updateStatus<T extends KubeObject, O extends T = T>(
    type: ResourceType<T>,
    object: O,
    options?: WriteOptions,
  ): Promise<Persisted<O>>;

  /** JSON merge patch (RFC 7386): objects merge, `null` deletes, arrays replace. */
  patch<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    patch: MergePatch,
    options?: PatchOptions,
  ): Promise<T>;

  /** Merge patch of the status subresource. */
  patchStatus<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    patch: MergePatch,
    options?: PatchOptions,
  ): Promise<T>;

  /**
   * Server-side apply: the configuration (apiVersion, kind, metadata.name and namespace, plus
   * exactly the fields `fieldManager` means to own) is merged in; creates the object when
   * absent. Conflict when another manager owns a field with a different value, unless `force`.
   * Accepts object literals of any shape, or values of a declared object type.
   */
  apply<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: UntypedObject,
    options: ApplyOptions,
  ): Promise<T>;
  apply<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: KubeObject,
    options: ApplyOptions,
  ): Promise<T>;

  /** Server-side apply to the status subresource. */
  applyStatus<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: UntypedObject,
    options: ApplyOptions,
  ): Promise<T>;
  applyStatus<T extends KubeObject>(
    type: ResourceType<T>,
    configuration: KubeObject,
    options: ApplyOptions,
  ): Promise<T>;

  /** NotFound when absent; Conflict when a precondition fails. */
  delete<T extends KubeObject>(
    type: ResourceType<T>,
    key: ObjectKey,
    options?: DeleteOptions,
  ): Promise<DeleteResult<T>>;

  /**
   * Evicts a pod through the policy/v1 Eviction API: refused with TooManyRequests when a
   * PodDisruptionBudget allows no disruption, InternalError (500) when several PDBs select the
   * pod; otherwise the pod is deleted with its grace period. NotFound when the pod is absent.
   */
  evict(key: ObjectKey, options?: EvictOptions): Promise<void>;

  /**
   * Records a core/v1 Event about an object. Identical events (same object, type, reason,
   * message, source) are aggregated into one Event whose `count` grows.
   */
  createEvent(event: EventInput): Promise<void>;
}
