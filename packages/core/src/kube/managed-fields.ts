import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from './json.js';
import type { ManagedFieldsEntry } from './object.js';

/**
 * Field ownership for server-side apply, in a simplified but honest model:
 * - a field path walks object members (`f:name`); lists are atomic leaves owned whole, except
 *   `metadata.finalizers`, a set whose items (`v:"item"`) are owned one by one (as its
 *   `listType=set` makes them on a real server); associative lists keyed by name/type are
 *   NOT merged per item (real SSA merges containers by name, conditions by type);
 * - leaves are owned: scalars, lists, empty objects; an applied empty object claims the
 *   map without clobbering or conflicting with what other managers put inside it;
 * - an Update also owns each map it created (the map's own path, FieldsV1 `f:spec: {".": {}}`),
 *   as kube-apiserver records it: that keeps the entry after a forced apply takes every leaf.
 *   Owning a path whose live value is a map conflicts only with writes that replace the map,
 *   never with fields set inside it (see `ownsOnlyTheMap`);
 * - conflicts are found by path overlap (an owned field, or one above or below it), slightly
 *   stricter than the real structured-merge-diff in rare type-changing cases;
 * - server-managed metadata (name, namespace, uid, resourceVersion, timestamps, ...) is never owned.
 */

/** One step of a field path: `f:<member>` or `v:<json item>` for a set item. */
export type PathSegment = string;
export type FieldPath = readonly PathSegment[];

/** The set lists of the model; every other list is atomic. */
const SET_LISTS: readonly FieldPath[] = [['f:metadata', 'f:finalizers']];

const UNOWNED: readonly FieldPath[] = [
  ['f:apiVersion'],
  ['f:kind'],
  ['f:metadata', 'f:name'],
  ['f:metadata', 'f:generateName'],
  ['f:metadata', 'f:namespace'],
  ['f:metadata', 'f:uid'],
  ['f:metadata', 'f:resourceVersion'],
  ['f:metadata', 'f:generation'],
  ['f:metadata', 'f:creationTimestamp'],
  ['f:metadata', 'f:deletionTimestamp'],
  ['f:metadata', 'f:deletionGracePeriodSeconds'],
  ['f:metadata', 'f:managedFields'],
  ['f:metadata', 'f:selfLink'],
];

/** Which part of an object an operation covers: all but status, only status, or everything. */
export type FieldScope = 'main' | 'status' | 'all';

export function pathKey(path: FieldPath): string {
  return JSON.stringify(path);
}

export function pathFromKey(key: string): FieldPath {
  return JSON.parse(key) as PathSegment[];
}

/** `.spec.replicas`, `.metadata.finalizers[="x"]`: the way conflict messages print paths. */
export function formatPath(path: FieldPath): string {
  return path.map((seg) => (seg.startsWith('v:') ? `[=${seg.slice(2)}]` : `.${seg.slice(2)}`)).join('');
}

function samePath(a: FieldPath, b: FieldPath): boolean {
  return a.length === b.length && a.every((seg, i) => seg === b[i]);
}

/** True when one path is a prefix of the other (or they are equal). */
export function overlaps(a: FieldPath, b: FieldPath): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether a path lies in the part of the object a scope covers (decided by its first segment). */
export function inScope(path: FieldPath, scope: FieldScope): boolean {
  if (scope === 'all') return true;
  const isStatus = path[0] === 'f:status';
  return scope === 'status' ? isStatus : !isStatus;
}

/** Server-managed metadata members, never owned (`UNOWNED` below `metadata`). */
const UNOWNED_METADATA: ReadonlySet<string> = new Set(
  UNOWNED.filter((p) => p.length === 2).map((p) => p[1] as PathSegment),
);

/** Whether a path is one of `UNOWNED`, by its segments (the walks test every node they visit). */
export function isUnowned(path: FieldPath): boolean {
  if (path.length === 1) return path[0] === 'f:apiVersion' || path[0] === 'f:kind';
  return path.length === 2 && path[0] === 'f:metadata' && UNOWNED_METADATA.has(path[1] as PathSegment);
}

function isSetList(path: FieldPath): boolean {
  return SET_LISTS.some((p) => samePath(p, path));
}

/** Every owned leaf of an object in a scope, with its value (set items map to the item). */
export function leaves(obj: JsonObject, scope: FieldScope): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  leavesAt(obj, [], scope, out);
  return out;
}

/** `leaves` of the value found at `path` of an object, added to `out` in walk order. */
export function leavesAt(
  value: JsonValue,
  path: PathSegment[],
  scope: FieldScope,
  out: Map<string, JsonValue>,
): void {
  if (isUnowned(path)) return;
  if (Array.isArray(value) && value.length > 0 && isSetList(path)) {
    if (!inScope(path, scope)) return;
    for (const item of value) out.set(pathKey([...path, `v:${JSON.stringify(item)}`]), item);
    return;
  }
  if (isJsonObject(value) && Object.keys(value).length > 0) {
    for (const [key, child] of Object.entries(value)) leavesAt(child, [...path, `f:${key}`], scope, out);
    return;
  }
  if (path.length > 0 && inScope(path, scope)) out.set(pathKey(path), value);
}

/**
 * The paths of every non-empty map of an object in a scope: the maps an Update that created
 * them owns. The root and `metadata` (always present) are not among them.
 */
export function maps(obj: JsonObject, scope: FieldScope): Set<string> {
  const out = new Set<string>();
  mapsAt(obj, [], scope, out);
  return out;
}

/** `maps` of the value found at `path` of an object, added to `out` in walk order. */
export function mapsAt(value: JsonValue, path: PathSegment[], scope: FieldScope, out: Set<string>): void {
  if (!isJsonObject(value) || Object.keys(value).length === 0) return;
  if (isUnowned(path)) return;
  if (path.length > 0 && !(path.length === 1 && path[0] === 'f:metadata') && inScope(path, scope)) {
    out.add(pathKey(path));
  }
  for (const [key, child] of Object.entries(value)) mapsAt(child, [...path, `f:${key}`], scope, out);
}

/**
 * True when `owned` is a strict ancestor of `path` and holds a map in `live`: its owner owns
 * the map itself, which a field set or removed inside it leaves in place.
 */
export function ownsOnlyTheMap(live: JsonValue, owned: FieldPath, path: FieldPath): boolean {
  if (owned.length >= path.length) return false;
  const at = readPath(live, owned);
  return at.found && isJsonObject(at.value ?? null);
}

/** Reads the value at a path; `found` is false when any step is missing. */
export function readPath(obj: JsonValue, path: FieldPath): { found: boolean; value?: JsonValue } {
  let current: JsonValue = obj;
  for (const seg of path) {
    if (seg.startsWith('v:')) {
      const item = JSON.parse(seg.slice(2)) as JsonValue;
      if (!Array.isArray(current) || !current.some((x) => JSON.stringify(x) === JSON.stringify(item))) {
        return { found: false };
      }
      current = item;
      continue;
    }
    if (!isJsonObject(current) || !Object.hasOwn(current, seg.slice(2))) return { found: false };
    current = current[seg.slice(2)] as JsonValue;
  }
  return { found: true, value: current };
}

/** Writes a value at a path, creating objects on the way; a set item is added if missing. */
export function writePath(obj: JsonObject, path: FieldPath, value: JsonValue): void {
  const last = path[path.length - 1] as PathSegment;
  if (last.startsWith('v:')) {
    const listPath = path.slice(0, -1);
    const parent = ensureObject(obj, listPath.slice(0, -1));
    const listKey = (listPath[listPath.length - 1] as PathSegment).slice(2);
    const list = Array.isArray(parent[listKey]) ? (parent[listKey] as JsonValue[]) : [];
    const item = JSON.stringify(value);
    if (!list.some((x) => JSON.stringify(x) === item)) list.push(cloneJson(value));
    parent[listKey] = list;
    return;
  }
  const parent = ensureObject(obj, path.slice(0, -1));
  const key = last.slice(2);
  // An empty object claims the map, not its contents: keep what others put inside.
  if (isJsonObject(value) && Object.keys(value).length === 0 && isJsonObject(parent[key])) return;
  parent[key] = cloneJson(value);
}

function ensureObject(obj: JsonObject, path: FieldPath): JsonObject {
  let current = obj;
  for (const seg of path) {
    const key = seg.slice(2);
    if (!isJsonObject(current[key])) current[key] = {};
    current = current[key] as JsonObject;
  }
  return current;
}

/** Removes the value at a path (a set item from its list); missing paths are ignored. */
export function removePath(obj: JsonObject, path: FieldPath): void {
  const last = path[path.length - 1] as PathSegment;
  const parent = readPath(obj, path.slice(0, -1));
  if (!parent.found) return;
  if (last.startsWith('v:')) {
    if (!Array.isArray(parent.value)) return;
    const item = last.slice(2);
    const index = parent.value.findIndex((x) => JSON.stringify(x) === item);
    if (index >= 0) parent.value.splice(index, 1);
    return;
  }
  if (isJsonObject(parent.value ?? null)) delete (parent.value as JsonObject)[last.slice(2)];
}

/** A managedFields entry with its fields decoded into a set of path keys. */
export interface FieldOwnership {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly time: string;
  readonly subresource?: string;
  readonly fields: Set<string>;
}

/** Decodes `metadata.managedFields`, each entry with `decode` (by default `decodeEntry`). */
export function decodeManagedFields(
  entries: readonly ManagedFieldsEntry[] | undefined,
  decode: (entry: ManagedFieldsEntry) => FieldOwnership = decodeEntry,
): FieldOwnership[] {
  return (entries ?? []).map((entry) => decode(entry));
}

/** Decodes one `managedFields` entry. */
export function decodeEntry(entry: ManagedFieldsEntry): FieldOwnership {
  return {
    manager: entry.manager,
    operation: entry.operation,
    apiVersion: entry.apiVersion ?? '',
    time: entry.time ?? '',
    ...(entry.subresource === undefined ? {} : { subresource: entry.subresource }),
    fields: decodeFieldsV1(entry.fieldsV1 ?? {}),
  };
}

/**
 * Encodes ownership back into `metadata.managedFields`, dropping entries that own nothing, in
 * kube-apiserver's order: operation (Apply before Update), time, manager, subresource. Each
 * entry is encoded with `encode` (by default `encodeEntry`).
 */
export function encodeManagedFields(
  owners: readonly FieldOwnership[],
  encode: (owner: FieldOwnership) => ManagedFieldsEntry = encodeEntry,
): ManagedFieldsEntry[] {
  return owners
    .filter((o) => o.fields.size > 0)
    .sort(compareEntries)
    .map((o) => encode(o));
}

/** Encodes one owner as a `managedFields` entry; `parse` reads its path keys (`pathFromKey`). */
export function encodeEntry(
  o: FieldOwnership,
  parse: (key: string) => FieldPath = pathFromKey,
): ManagedFieldsEntry {
  return {
    manager: o.manager,
    operation: o.operation,
    apiVersion: o.apiVersion,
    time: o.time,
    fieldsType: 'FieldsV1' as const,
    fieldsV1: encodeFieldsV1(o.fields, parse),
    ...(o.subresource === undefined ? {} : { subresource: o.subresource }),
  };
}

function compareEntries(a: FieldOwnership, b: FieldOwnership): number {
  if (a.operation !== b.operation) return a.operation < b.operation ? -1 : 1;
  // The server compares whole seconds; unparsable times count as the epoch, as a nil time does.
  const seconds = (time: string) => Math.floor((Date.parse(time) || 0) / 1000);
  const dt = seconds(a.time) - seconds(b.time);
  if (dt !== 0) return dt;
  if (a.manager !== b.manager) return a.manager < b.manager ? -1 : 1;
  const sa = a.subresource ?? '';
  const sb = b.subresource ?? '';
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** The nested `FieldsV1` form: `{"f:spec": {"f:replicas": {}}}`, `"."` marking an owned inner node. */
export function encodeFieldsV1(
  fields: Iterable<string>,
  parse: (key: string) => FieldPath = pathFromKey,
): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const owned: Record<string, unknown>[] = [];
  for (const key of fields) {
    let node = root;
    for (const seg of parse(key)) {
      if (!isRecord(node[seg])) node[seg] = {};
      node = node[seg] as Record<string, unknown>;
    }
    owned.push(node);
  }
  for (const node of owned) if (Object.keys(node).length > 0) node['.'] = {};
  return root;
}

export function decodeFieldsV1(fieldsV1: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  const walk = (node: Record<string, unknown>, path: PathSegment[]) => {
    const children = Object.keys(node).filter((k) => k !== '.');
    if (path.length > 0 && (children.length === 0 || Object.hasOwn(node, '.'))) out.add(pathKey(path));
    for (const key of children) {
      const child = node[key];
      if (isRecord(child)) walk(child, [...path, key]);
    }
  };
  walk(fieldsV1, []);
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
