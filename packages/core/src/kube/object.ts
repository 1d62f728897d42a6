/**
 * The schema-free view of Kubernetes objects the cluster port works with: every kind is a
 * JSON record with `apiVersion`, `kind` and `metadata`; everything else is the kind's business.
 */

/** `metadata.ownerReferences[]`: who owns an object, for garbage collection. */
export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /**
   * Required by the API server (a write without it is Invalid). Optional in the type so that
   * objects parsed from hand-written manifests (apis/kubernetes) fit.
   */
  readonly uid?: string;
  readonly controller?: boolean;
  /** With foreground deletion, the owner waits until this dependent is gone. */
  readonly blockOwnerDeletion?: boolean;
}

/** One `metadata.managedFields[]` entry: which fields a field manager set, and how. */
export interface ManagedFieldsEntry {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion?: string;
  readonly time?: string;
  readonly fieldsType?: 'FieldsV1';
  readonly fieldsV1?: Record<string, unknown>;
  readonly subresource?: string;
}

/** `metadata` as the API server reads and writes it. Server-owned fields are filled on create. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  /** Required for namespaced kinds (defaults to `default`); absent for cluster-scoped ones. */
  namespace?: string;
  uid?: string;
  /** Opaque; compare for equality only. A stale value on update is a Conflict. */
  resourceVersion?: string;
  /** Bumped by the server when the object's desired state (spec) changes, and on deletion. */
  generation?: number;
  creationTimestamp?: string;
  /** Set once, when deletion is requested; the object stays until its finalizers are gone. */
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: ManagedFieldsEntry[];
}

/**
 * Any Kubernetes object. Concrete kinds (Pod, NodeClaim, ...) are plain types that extend this;
 * the port never looks past `metadata` except where API semantics require it (status, spec).
 */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

/**
 * An object of a kind the caller has no type for: any members besides metadata. The type of
 * the built-in ResourceTypes, so literals with `spec`/`status` need no declared type.
 */
export interface UntypedObject extends KubeObject {
  [key: string]: unknown;
}

/**
 * An object as the server returns it: the caller's type, with every metadata field the
 * server may have filled (uid, resourceVersion, ...) visible even when `T` is a literal type.
 */
export type Persisted<T extends KubeObject> = T & KubeObject;

/** Names one object of a known kind. `namespace` is ignored for cluster-scoped kinds. */
export interface ObjectKey {
  readonly name: string;
  readonly namespace?: string;
}

/** core/v1 ObjectReference, as events and bindings carry it. */
export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

/** The namespace a namespaced object lands in when none is given, as kubectl and clients do. */
export const DEFAULT_NAMESPACE = 'default';

/** The key of an object, for get/patch/delete after a list or watch. */
export function keyOf(obj: KubeObject): ObjectKey {
  const { name, namespace } = obj.metadata;
  if (name === undefined) throw new Error('object has no metadata.name');
  return namespace === undefined ? { name } : { name, namespace };
}

/** A reference to an object for an event's `involvedObject`. */
export function referenceTo(obj: KubeObject): ObjectReference {
  const ref: ObjectReference = {};
  if (obj.apiVersion !== undefined) ref.apiVersion = obj.apiVersion;
  if (obj.kind !== undefined) ref.kind = obj.kind;
  if (obj.metadata.name !== undefined) ref.name = obj.metadata.name;
  if (obj.metadata.namespace !== undefined) ref.namespace = obj.metadata.namespace;
  if (obj.metadata.uid !== undefined) ref.uid = obj.metadata.uid;
  if (obj.metadata.resourceVersion !== undefined) ref.resourceVersion = obj.metadata.resourceVersion;
  return ref;
}

/** The owner reference marked `controller: true`, if any (at most one is allowed). */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata.ownerReferences?.find((ref) => ref.controller === true);
}

/** metav1.Time's wire form: RFC 3339 in UTC with whole seconds, as the API server writes it. */
export function formatTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Milliseconds since the epoch for a metav1.Time string. */
export function parseTime(value: string): number {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new Error(`not an RFC 3339 time: ${value}`);
  return ms;
}
