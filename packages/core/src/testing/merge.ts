/**
 * Overrides for a builder: any part of `T`, nested objects partial too. Arrays are replaced
 * whole (a list is one value: taints, requirements, containers).
 */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A fresh copy of `base` with `overrides` merged in: plain objects merge key by key
 * (recursively), everything else — arrays, strings, numbers — replaces. An `undefined` override
 * keeps the base value; to remove a field use `withValue(obj, path, undefined)` from apis.
 */
export function mergeOverrides<T>(base: T, overrides?: NoInfer<DeepPartial<T>>): T {
  return merge(structuredClone(base), overrides) as T;
}

function merge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (isPlainObject(base) && isPlainObject(over)) {
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of Object.entries(over)) {
      if (value === undefined) continue;
      out[key] = merge(base[key], value);
    }
    return out;
  }
  return structuredClone(over);
}
