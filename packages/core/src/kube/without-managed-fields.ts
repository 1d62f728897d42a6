import type { KubeObject } from './object.js';

/**
 * The object without `metadata.managedFields`: a copy of the object and its metadata (nothing
 * deeper is copied, nor the object changed), or the object itself when it has none. What a
 * controller cache keeps: field ownership is for server-side apply on the server, and it is
 * 40 % of a Pod's and half of a Node's JSON.
 */
export function withoutManagedFields<T extends KubeObject>(object: T): T {
  if (object.metadata.managedFields === undefined) return object;
  const { managedFields: _dropped, ...metadata } = object.metadata;
  return { ...object, metadata };
}
