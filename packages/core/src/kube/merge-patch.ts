import { cloneJson, isJsonObject, type JsonObject, type JsonValue, jsonEqual } from './json.js';

/**
 * JSON merge patch (RFC 7386), the patch type every kind accepts, CRDs included: objects
 * merge recursively, `null` deletes a member, anything else (arrays too) replaces.
 */
export type MergePatch = JsonObject;

/** Applies a merge patch; the target is not modified. */
export function applyMergePatch(target: unknown, patch: unknown): JsonValue {
  if (!isJsonObject(patch)) return cloneJson(patch as JsonValue);
  const out: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = applyMergePatch(out[key], value);
  }
  return out;
}

/**
 * The smallest merge patch turning `from` into `to`: changed members, `null` for removed ones.
 * Arrays are compared whole. Returns `{}` when nothing changed.
 */
export function createMergePatch(from: JsonObject, to: JsonObject): MergePatch {
  const patch: MergePatch = {};
  for (const key of Object.keys(from)) {
    if (!Object.hasOwn(to, key)) patch[key] = null;
  }
  for (const [key, value] of Object.entries(to)) {
    const before = from[key];
    if (jsonEqual(before, value)) continue;
    if (isJsonObject(before) && isJsonObject(value)) patch[key] = createMergePatch(before, value);
    else patch[key] = cloneJson(value);
  }
  return patch;
}
