import { DEFAULT_NAMESPACE } from '../object.js';
import { groupOf, type ResourceType } from '../resource-type.js';

/** Query parameters of one request; `undefined` members are left out. */
export type QueryParams = Readonly<Record<string, string | number | boolean | undefined>>;

/** A subresource the port addresses. */
export type Subresource = 'status' | 'eviction';

/** `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
export function apiPrefix(type: Pick<ResourceType, 'apiVersion'>): string {
  return groupOf(type) === '' ? `/api/${type.apiVersion}` : `/apis/${type.apiVersion}`;
}

/**
 * The collection URL path of a kind: across all namespaces when `namespace` is unset (or the kind
 * is cluster-scoped), else within that namespace.
 */
export function collectionPath(type: ResourceType, namespace?: string): string {
  const plural = encodeURIComponent(type.plural);
  if (!type.namespaced || namespace === undefined || namespace === '') return `${apiPrefix(type)}/${plural}`;
  return `${apiPrefix(type)}/namespaces/${encodeURIComponent(namespace)}/${plural}`;
}

/** The URL path of one object (or its subresource); namespaced kinds default to `default`. */
export function objectPath(
  type: ResourceType,
  name: string,
  namespace: string | undefined,
  subresource?: Subresource,
): string {
  const ns = type.namespaced ? namespace || DEFAULT_NAMESPACE : undefined;
  const base = collectionPath(type, ns);
  const path = `${base}/${encodeURIComponent(name)}`;
  return subresource === undefined ? path : `${path}/${subresource}`;
}

/** `?a=1&b=x` for the defined parameters, or `''` when there are none. */
export function queryString(query: QueryParams | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
