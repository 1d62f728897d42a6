import type { KubeObject } from '../object.js';
import { withoutManagedFields } from '../without-managed-fields.js';

/**
 * Freezes a JSON value and everything inside it, so it can be handed to any number of readers
 * without copies: a reader that tries to change it gets a TypeError instead of changing what the
 * store holds. Parts already frozen are taken as deeply frozen (they were frozen here, as parts
 * of an earlier version sharing them), which makes freezing a new version cost only its new
 * parts.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const item of value) deepFreeze(item);
  } else {
    for (const key in value) {
      if (Object.hasOwn(value, key)) deepFreeze((value as Record<string, unknown>)[key]);
    }
  }
  return value;
}

/**
 * A frozen object's next version with another resourceVersion, sharing everything but the top
 * level and metadata (the state a deletion's watch event carries).
 */
export function withResourceVersion(object: KubeObject, resourceVersion: string): KubeObject {
  return deepFreeze({ ...object, metadata: { ...object.metadata, resourceVersion } });
}

/**
 * The views of stored objects without managedFields that watches for caches deliver: one per
 * stored version, shared by every such watch (stored versions are frozen, and so are the views).
 */
export class ManagedFieldsFreeViews {
  readonly #views = new WeakMap<KubeObject, KubeObject>();

  of(object: KubeObject): KubeObject {
    let view = this.#views.get(object);
    if (view === undefined) {
      view = deepFreeze(withoutManagedFields(object));
      this.#views.set(object, view);
    }
    return view;
  }
}
