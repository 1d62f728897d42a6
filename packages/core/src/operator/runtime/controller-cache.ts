import type { KubeObject, ObjectKey } from '../../kube/object.js';
import { type ResourceType, typeKey } from '../../kube/resource-type.js';
import { keyString } from './keys.js';

/**
 * Read access to the objects the manager's watches last delivered, without a round trip to the
 * API server. Eventually consistent: a write a reconcile just made may not be visible yet, so
 * use it to find and map objects, and read through the ClusterPort before deciding a write.
 * Returned objects are shared; treat them as read-only. They carry no `metadata.managedFields`
 * (see `withoutManagedFields`).
 */
export interface ControllerCache {
  /** Whether some controller watches this kind (only watched kinds are cached). */
  has(type: ResourceType): boolean;
  get<T extends KubeObject>(type: ResourceType<T>, key: ObjectKey): T | undefined;
  /** Every cached object of the kind, optionally filtered. @throws when the kind is not watched. */
  list<T extends KubeObject>(type: ResourceType<T>, filter?: (obj: T) => boolean): T[];
}

/** The objects of one kind as a watch delivered them, by key string. */
export class TypeStore {
  readonly objects = new Map<string, KubeObject>();
}

/** An ControllerCache over the per-kind stores the manager's informers keep. */
export class StoreCache implements ControllerCache {
  readonly #stores: ReadonlyMap<string, TypeStore>;

  constructor(stores: ReadonlyMap<string, TypeStore>) {
    this.#stores = stores;
  }

  has(type: ResourceType): boolean {
    return this.#stores.has(typeKey(type));
  }

  get<T extends KubeObject>(type: ResourceType<T>, key: ObjectKey): T | undefined {
    const k = type.namespaced
      ? keyString({ name: key.name, namespace: key.namespace ?? 'default' })
      : key.name;
    return this.#store(type).objects.get(k) as T | undefined;
  }

  list<T extends KubeObject>(type: ResourceType<T>, filter?: (obj: T) => boolean): T[] {
    const out: T[] = [];
    for (const obj of this.#store(type).objects.values()) {
      if (filter === undefined || filter(obj as T)) out.push(obj as T);
    }
    return out;
  }

  #store(type: ResourceType): TypeStore {
    const store = this.#stores.get(typeKey(type));
    if (store === undefined)
      throw new Error(`${typeKey(type)} is not watched by any controller, so it is not cached`);
    return store;
  }
}
