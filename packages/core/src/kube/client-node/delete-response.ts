import { isJsonObject } from '../json.js';
import type { KubeObject, ObjectKey } from '../object.js';
import type { DeleteResult } from '../port.js';
import type { ResourceType } from '../resource-type.js';

/**
 * Reads a successful DELETE answer. The API server answers with a `Status` when the object
 * went at once and its kind does not return deleted objects (most kinds, custom resources
 * included), and with the object otherwise: still present when finalizers or a pod's grace
 * period hold it, gone when it was deleted immediately (pods, for one, return their last
 * state). For a `Status` only the identity of the deleted object is known.
 */
export function readDeleteResponse(
  type: ResourceType,
  key: ObjectKey,
  body: unknown,
): DeleteResult<KubeObject> {
  if (!isJsonObject(body) || body.kind === 'Status' || !isJsonObject(body.metadata)) {
    const details = isJsonObject(body) && isJsonObject(body.details) ? body.details : {};
    const metadata: KubeObject['metadata'] = { name: key.name };
    if (type.namespaced) metadata.namespace = key.namespace || 'default';
    if (typeof details.uid === 'string') metadata.uid = details.uid;
    return { deleted: true, object: { apiVersion: type.apiVersion, kind: type.kind, metadata } };
  }
  const object = body as unknown as KubeObject;
  return { deleted: !stillPresent(type, object), object };
}

/**
 * Whether an object a DELETE returned remains: deletion was requested and something holds it
 * (finalizers, a grace period, a namespace's `spec.finalizers`).
 */
export function stillPresent(type: ResourceType, object: KubeObject): boolean {
  const meta = object.metadata;
  if (meta.deletionTimestamp === undefined) return false;
  if ((meta.finalizers ?? []).length > 0) return true;
  if ((meta.deletionGracePeriodSeconds ?? 0) > 0) return true;
  if (type.apiVersion === 'v1' && type.kind === 'Namespace') {
    const spec = (object as unknown as { spec?: unknown }).spec;
    return isJsonObject(spec) && Array.isArray(spec.finalizers) && spec.finalizers.length > 0;
  }
  return false;
}
