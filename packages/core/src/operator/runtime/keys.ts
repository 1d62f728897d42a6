import type { KubeObject, ObjectKey } from '../../kube/object.js';

/**
 * The string form of an ObjectKey the work queue deduplicates on: `namespace/name`, or `name`
 * for cluster-scoped objects (as client-go's MetaNamespaceKeyFunc writes it).
 */
export function keyString(key: ObjectKey): string {
  return key.namespace === undefined || key.namespace === '' ? key.name : `${key.namespace}/${key.name}`;
}

/** The ObjectKey a `keyString` result stands for. */
export function parseKey(text: string): ObjectKey {
  const slash = text.indexOf('/');
  return slash < 0 ? { name: text } : { namespace: text.slice(0, slash), name: text.slice(slash + 1) };
}

/** The key of an object as a watch delivered it; undefined when it has no name (never for stored objects). */
export function objectKey(obj: KubeObject): ObjectKey | undefined {
  const { name, namespace } = obj.metadata;
  if (name === undefined) return undefined;
  return namespace === undefined ? { name } : { name, namespace };
}
