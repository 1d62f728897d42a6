import { isJsonObject, type JsonObject, type JsonValue, jsonEqual } from './json.js';
import { type FieldScope, inScope, isUnowned, leavesAt, mapsAt, type PathSegment } from './managed-fields.js';

/**
 * What a write changed in one scope, as field path keys (`pathKey`): the differences between
 * `leaves(before)` and `leaves(after)` and between their `maps`.
 */
export interface FieldChanges {
  /** Leaves new or with another value, in the order `leaves(after)` lists them. */
  readonly changed: readonly string[];
  /** Leaves of `before` that `after` does not have, in no particular order. */
  readonly removed: readonly string[];
  /** Maps of `after` that `before` did not have, in the order `maps(after)` lists them. */
  readonly created: readonly string[];
}

/** Marks a member one side does not have (`undefined` is a value JavaScript objects can hold). */
const MISSING: unique symbol = Symbol('missing');
type Side = JsonValue | typeof MISSING;

/**
 * The field changes from `before` to `after`, equal to comparing their `leaves` and `maps` in
 * full, but walking only where they differ: a subtree `after` shares with `before` (the same
 * object, as a new version of a frozen stored object shares its unchanged parts) changed
 * nothing, and members outside the scope are not visited. A write that patches one status
 * condition of a pod then looks at that condition, not at the pod's spec.
 */
export function diffFields(before: JsonObject, after: JsonObject, scope: FieldScope): FieldChanges {
  const out = { changed: [] as string[], removed: [] as string[], created: [] as string[] };
  diffAt(before, after, [], scope, out);
  return out;
}

function isMap(value: Side): value is JsonObject {
  return value !== MISSING && isJsonObject(value) && Object.keys(value).length > 0;
}

function diffAt(
  before: Side,
  after: Side,
  path: PathSegment[],
  scope: FieldScope,
  out: { changed: string[]; removed: string[]; created: string[] },
): void {
  if (before === after || isUnowned(path)) return;
  if (isMap(before) && isMap(after)) {
    // A map on both sides: neither created nor removed here; compare member by member.
    const top = path.length === 0 && scope !== 'all';
    for (const key of Object.keys(after)) {
      const at = [...path, `f:${key}`];
      if (top && !inScope(at, scope)) continue;
      diffAt(
        Object.hasOwn(before, key) ? (before[key] as JsonValue) : MISSING,
        after[key] as JsonValue,
        at,
        scope,
        out,
      );
    }
    for (const key of Object.keys(before)) {
      if (Object.hasOwn(after, key)) continue;
      const at = [...path, `f:${key}`];
      if (top && !inScope(at, scope)) continue;
      diffAt(before[key] as JsonValue, MISSING, at, scope, out);
    }
    return;
  }
  // A leaf on at least one side: compare the two subtrees' leaves and maps in full.
  const old = new Map<string, JsonValue>();
  const now = new Map<string, JsonValue>();
  if (before !== MISSING) leavesAt(before, path, scope, old);
  if (after !== MISSING) leavesAt(after, path, scope, now);
  for (const [key, value] of now) if (!old.has(key) || !jsonEqual(old.get(key), value)) out.changed.push(key);
  for (const key of old.keys()) if (!now.has(key)) out.removed.push(key);
  if (after === MISSING) return;
  const oldMaps = new Set<string>();
  const newMaps = new Set<string>();
  if (before !== MISSING) mapsAt(before, path, scope, oldMaps);
  mapsAt(after, path, scope, newMaps);
  for (const key of newMaps) if (!oldMaps.has(key)) out.created.push(key);
}
