import type { JsonObject } from './converter.js';

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object at `key`, or undefined when absent or not an object. */
export function objectAt(parent: JsonObject | undefined, key: string): JsonObject | undefined {
  const value = parent?.[key];
  return isJsonObject(value) ? value : undefined;
}

/** The object at `key`, created (and set) when absent; a non-object is replaced. */
export function ensureObject(parent: JsonObject, key: string): JsonObject {
  const existing = objectAt(parent, key);
  if (existing !== undefined) return existing;
  const created: JsonObject = {};
  parent[key] = created;
  return created;
}

/** The string at `key`, or undefined when absent or not a string. */
export function stringAt(parent: JsonObject | undefined, key: string): string | undefined {
  const value = parent?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** Structural equality of decoded JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
}

/**
 * The API group of an apiVersion: `karpenter.k8s.aws/v1beta1` -> `karpenter.k8s.aws`, `v1` ->
 * `` (the core group). Undefined when it has more than one slash, as Kubernetes rejects it.
 */
export function groupOf(apiVersion: string): string | undefined {
  const parts = apiVersion.split('/');
  if (parts.length === 1) return '';
  if (parts.length === 2) return parts[0];
  return undefined;
}

/** `Kind/name` as the CLI names objects; an unnamed object gets its position in the batch. */
export function objectName(obj: JsonObject, position: number): string {
  const kind = typeof obj.kind === 'string' ? obj.kind : '<no kind>';
  const name = stringAt(objectAt(obj, 'metadata'), 'name');
  return `${kind}/${name !== undefined && name !== '' ? name : `<unnamed #${position}>`}`;
}

/** Compact JSON for quoting a value in a warning. */
export function quote(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}
