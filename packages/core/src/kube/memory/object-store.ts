import type { JsonObject } from '../json.js';
import type { KubeObject, OwnerReference } from '../object.js';
import { deepFreeze, withResourceVersion } from './frozen.js';

/** One committed write, in resourceVersion order: what watches and controllers react to. */
export interface Change {
  readonly rv: number;
  readonly typeKey: string;
  readonly op: 'create' | 'update' | 'delete';
  /** The new state, or for a delete the last state (carrying the deletion's resourceVersion). */
  readonly object: KubeObject;
  /** The state before an update or delete. */
  readonly previous?: KubeObject;
}

/** Where a stored object lives. */
export interface StoredObject {
  readonly typeKey: string;
  readonly key: string;
  readonly object: KubeObject;
}

/**
 * An equality index on one field of one kind, as the API server's watch cache keeps for pods'
 * `spec.nodeName`: a list with that field selector reads the matching objects, not all of them.
 */
export interface FieldIndex {
  readonly typeKey: string;
  readonly field: string;
  /** The field's value as field selectors compare it. */
  readonly valueOf: (object: KubeObject) => string;
}

/** Storage key of an object: `namespace/name`, or `name` for cluster-scoped kinds. */
export function storeKey(namespace: string | undefined, name: string): string {
  return namespace === undefined ? name : `${namespace}/${name}`;
}

/**
 * The emulated etcd: objects per kind, one global revision counter (the resourceVersion), and
 * indexes by uid and by owner uid. Every stored object is deeply frozen when it is stored, so it
 * can be handed to readers as it is: a new version is a new object (which may share unchanged,
 * frozen parts with the one before), never a change to a stored one.
 */
export class ObjectStore {
  #revision = 0;
  readonly #kinds = new Map<string, Map<string, KubeObject>>();
  readonly #byUid = new Map<string, { typeKey: string; key: string }>();
  readonly #dependents = new Map<string, Set<string>>();
  readonly #onChange: (change: Change) => void;
  /** Per kind, per indexed field: its definition and the keys of the objects per value. */
  readonly #fields = new Map<string, Map<string, { index: FieldIndex; keys: Map<string, Set<string>> }>>();

  constructor(onChange: (change: Change) => void, indexes: readonly FieldIndex[] = []) {
    this.#onChange = onChange;
    for (const index of indexes) {
      let byField = this.#fields.get(index.typeKey);
      if (byField === undefined) {
        byField = new Map();
        this.#fields.set(index.typeKey, byField);
      }
      byField.set(index.field, { index, keys: new Map() });
    }
  }

  /** The current revision: the resourceVersion of the latest write. */
  get revision(): number {
    return this.#revision;
  }

  get(typeKey: string, key: string): KubeObject | undefined {
    return this.#kinds.get(typeKey)?.get(key);
  }

  all(typeKey: string): KubeObject[] {
    return [...(this.#kinds.get(typeKey)?.values() ?? [])];
  }

  /**
   * The objects of a kind whose indexed `field` equals `value` (in no particular order), or
   * undefined when that field is not indexed.
   */
  withField(typeKey: string, field: string, value: string): KubeObject[] | undefined {
    const indexed = this.#fields.get(typeKey)?.get(field);
    if (indexed === undefined) return undefined;
    const map = this.#kinds.get(typeKey);
    return [...(indexed.keys.get(value) ?? [])].map((key) => map!.get(key)!);
  }

  byUid(uid: string): StoredObject | undefined {
    const at = this.#byUid.get(uid);
    if (at === undefined) return undefined;
    const object = this.get(at.typeKey, at.key);
    return object === undefined ? undefined : { ...at, object };
  }

  /** Objects whose ownerReferences name `uid`. */
  dependentsOf(uid: string): StoredObject[] {
    const out: StoredObject[] = [];
    for (const id of this.#dependents.get(uid) ?? []) {
      const [typeKey, key] = JSON.parse(id) as [string, string];
      const object = this.get(typeKey, key);
      if (object !== undefined) out.push({ typeKey, key, object });
    }
    return out;
  }

  /** Stores a new object, stamping the next resourceVersion; it is frozen from then on. */
  insert(typeKey: string, key: string, object: KubeObject): KubeObject {
    object.metadata.resourceVersion = String(++this.#revision);
    deepFreeze(object);
    this.#map(typeKey).set(key, object);
    if (object.metadata.uid !== undefined) this.#byUid.set(object.metadata.uid, { typeKey, key });
    this.#index(typeKey, key, undefined, object);
    this.#onChange({ rv: this.#revision, typeKey, op: 'create', object });
    return object;
  }

  /**
   * Replaces a stored object, stamping the next resourceVersion; it is frozen from then on. Its
   * top level and metadata must be its own (they are stamped), not shared with a stored object.
   */
  replace(typeKey: string, key: string, object: KubeObject): KubeObject {
    const previous = this.get(typeKey, key);
    if (previous === undefined) throw new Error(`replace of missing ${typeKey} ${key}`);
    object.metadata.resourceVersion = String(++this.#revision);
    deepFreeze(object);
    this.#map(typeKey).set(key, object);
    this.#index(typeKey, key, previous, object);
    this.#onChange({ rv: this.#revision, typeKey, op: 'update', object, previous });
    return object;
  }

  /**
   * Removes an object; `lastState` (default: the stored one) is what watchers see deleted, as a
   * frozen object with the deletion's resourceVersion.
   */
  remove(typeKey: string, key: string, lastState?: KubeObject): KubeObject {
    const previous = this.get(typeKey, key);
    if (previous === undefined) throw new Error(`remove of missing ${typeKey} ${key}`);
    this.#map(typeKey).delete(key);
    if (previous.metadata.uid !== undefined) this.#byUid.delete(previous.metadata.uid);
    this.#index(typeKey, key, previous, undefined);
    const object = withResourceVersion(lastState ?? previous, String(++this.#revision));
    this.#onChange({ rv: this.#revision, typeKey, op: 'delete', object, previous });
    return object;
  }

  #map(typeKey: string): Map<string, KubeObject> {
    let map = this.#kinds.get(typeKey);
    if (map === undefined) {
      map = new Map();
      this.#kinds.set(typeKey, map);
    }
    return map;
  }

  #index(typeKey: string, key: string, before: KubeObject | undefined, after: KubeObject | undefined): void {
    this.#indexFields(typeKey, key, before, after);
    const id = JSON.stringify([typeKey, key]);
    const owners = (obj: KubeObject | undefined) =>
      new Set(
        (obj?.metadata.ownerReferences ?? [])
          .map((ref: OwnerReference) => ref.uid)
          .filter((uid): uid is string => uid !== undefined),
      );
    const was = owners(before);
    const now = owners(after);
    for (const uid of was) {
      if (now.has(uid)) continue;
      const set = this.#dependents.get(uid);
      set?.delete(id);
      if (set?.size === 0) this.#dependents.delete(uid);
    }
    for (const uid of now) {
      let set = this.#dependents.get(uid);
      if (set === undefined) {
        set = new Set();
        this.#dependents.set(uid, set);
      }
      set.add(id);
    }
  }

  #indexFields(
    typeKey: string,
    key: string,
    before: KubeObject | undefined,
    after: KubeObject | undefined,
  ): void {
    const byField = this.#fields.get(typeKey);
    if (byField === undefined) return;
    for (const { index, keys } of byField.values()) {
      const was = before === undefined ? undefined : index.valueOf(before);
      const now = after === undefined ? undefined : index.valueOf(after);
      if (was === now) continue;
      if (was !== undefined) {
        const set = keys.get(was);
        set?.delete(key);
        if (set?.size === 0) keys.delete(was);
      }
      if (now !== undefined) {
        const set = keys.get(now);
        if (set === undefined) keys.set(now, new Set([key]));
        else set.add(key);
      }
    }
  }
}

/** Narrows a stored object to its JSON form. */
export function asJson(obj: KubeObject): JsonObject {
  return obj as unknown as JsonObject;
}
