import type { KindDefinition } from '../apis/kind.js';
import type { KubeObject } from './object.js';

/**
 * Identifies a kind for the cluster port: `{apiVersion, kind}` plus what a client must know to
 * address it (scope, REST plural, status subresource). The type parameter only types results;
 * nothing checks objects against it at run time.
 */
export interface ResourceType<T extends KubeObject = KubeObject> {
  /** `group/version`, or `v1` for the core group. */
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** REST resource name (`pods`, `nodeclaims`); used in URLs and error messages. */
  readonly plural: string;
  /**
   * With a status subresource, update/patch/apply ignore `status` and
   * updateStatus/patchStatus touch nothing else.
   */
  readonly statusSubresource: boolean;
  /**
   * Phantom member carrying `T`; never set. A method, so that it is bivariant: a loosely typed
   * descriptor can serve a caller that names its own object type (`list<Pod>(Pods)`).
   */
  __object?(object: T): void;
}

/** The fields of a ResourceType a caller writes; plural and status default sensibly. */
export interface ResourceTypeInit {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Defaults to the lower-cased kind made plural the way CRD tooling does (`NodeClass` -> `nodeclasses`). */
  readonly plural?: string;
  readonly statusSubresource?: boolean;
}

/** Builds a frozen ResourceType, typed by the object it describes. */
export function resourceType<T extends KubeObject = KubeObject>(init: ResourceTypeInit): ResourceType<T> {
  return Object.freeze({
    apiVersion: init.apiVersion,
    kind: init.kind,
    namespaced: init.namespaced,
    plural: init.plural ?? pluralize(init.kind),
    statusSubresource: init.statusSubresource ?? false,
  });
}

/** The ResourceType of a kind nodewright ships a CRD for (or describes without one). */
export function resourceTypeOf<T extends KubeObject = KubeObject>(def: KindDefinition): ResourceType<T> {
  const init: ResourceTypeInit = {
    apiVersion: def.apiVersion,
    kind: def.kind,
    namespaced: def.namespaced,
    statusSubresource: def.crd?.subresources?.status ?? false,
  };
  return resourceType<T>(def.crd === undefined ? init : { ...init, plural: def.crd.plural });
}

/** The API group of a type; `''` for the core group. */
export function groupOf(type: Pick<ResourceType, 'apiVersion'>): string {
  const slash = type.apiVersion.indexOf('/');
  return slash < 0 ? '' : type.apiVersion.slice(0, slash);
}

/** `plural.group` (or `plural` for core kinds), the resource name Kubernetes puts in messages. */
export function groupResource(type: Pick<ResourceType, 'apiVersion' | 'plural'>): string {
  const group = groupOf(type);
  return group === '' ? type.plural : `${type.plural}.${group}`;
}

/** Key identifying a kind: `apiVersion/kind`. */
export function typeKey(type: Pick<ResourceType, 'apiVersion' | 'kind'>): string {
  return `${type.apiVersion}/${type.kind}`;
}

function pluralize(kind: string): string {
  const lower = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}
