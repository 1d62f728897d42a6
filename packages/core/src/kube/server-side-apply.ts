import { diffFields } from './field-changes.js';
import { cloneJson, isJsonObject, type JsonObject, jsonEqual } from './json.js';
import {
  type FieldOwnership,
  type FieldPath,
  type FieldScope,
  leaves,
  overlaps,
  ownsOnlyTheMap,
  pathFromKey,
  pathKey,
  readPath,
  removePath,
  writePath,
} from './managed-fields.js';

/** A field another manager owns with a different value than the apply wants. */
export interface FieldConflict {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly path: FieldPath;
}

/** Who is acting, on which part of the object, and when. */
export interface ManagerContext {
  readonly manager: string;
  readonly apiVersion: string;
  /** metav1.Time of the operation, recorded in the managedFields entry. */
  readonly time: string;
  readonly scope: FieldScope;
  /** `status` for the status subresource. */
  readonly subresource?: string;
}

function sameEntry(o: FieldOwnership, manager: string, operation: string, subresource: string | undefined) {
  return o.manager === manager && o.operation === operation && o.subresource === subresource;
}

/**
 * The owners without the fields `drop` picks. Owners that lose nothing are returned as they
 * are and the others as copies, so the input (possibly shared, decoded from a stored version)
 * is never changed and unchanged entries keep their identity (which lets their encoding be
 * reused).
 */
function withoutFields(owners: readonly FieldOwnership[], drop: (key: string) => boolean): FieldOwnership[] {
  return owners.map((o) => {
    let fields: Set<string> | undefined;
    for (const key of o.fields) {
      if (drop(key)) {
        fields ??= new Set(o.fields);
        fields.delete(key);
      }
    }
    return fields === undefined ? o : { ...o, fields };
  });
}

function withEntry(
  owners: FieldOwnership[],
  ctx: ManagerContext,
  operation: 'Apply' | 'Update',
  fields: Set<string>,
) {
  const entry: FieldOwnership = {
    manager: ctx.manager,
    operation,
    apiVersion: ctx.apiVersion,
    time: ctx.time,
    ...(ctx.subresource === undefined ? {} : { subresource: ctx.subresource }),
    fields,
  };
  const at = owners.findIndex((o) => sameEntry(o, ctx.manager, operation, ctx.subresource));
  if (fields.size === 0) {
    if (at >= 0) owners.splice(at, 1);
  } else if (at >= 0) owners[at] = entry;
  else owners.push(entry);
  return owners;
}

/** Drops every owner's claim on a field (a map, say) that `object` no longer has. */
function dropVanished(
  owners: readonly FieldOwnership[],
  object: JsonObject,
  parse: (key: string) => FieldPath = pathFromKey,
): FieldOwnership[] {
  return withoutFields(owners, (key) => !readPath(object, parse(key)).found);
}

/**
 * Ownership after a non-apply write (create, update, patch) by `ctx.manager`: every leaf that
 * appeared or changed, and every map that appeared, becomes the manager's, and leaves are taken
 * from everyone else; leaves and maps that disappeared are owned by no one. Unchanged objects
 * leave ownership as it was. `owners` is not changed; entries that do not change are returned
 * as they are (treat them as read-only). `parse` reads path keys (`pathFromKey`, or a memo of it).
 */
export function recordUpdate(
  before: JsonObject,
  after: JsonObject,
  owners: readonly FieldOwnership[],
  ctx: ManagerContext,
  parse: (key: string) => FieldPath = pathFromKey,
): FieldOwnership[] {
  const { changed, removed, created } = diffFields(before, after, ctx.scope);
  if (changed.length === 0 && removed.length === 0 && created.length === 0) return [...owners];

  const taken = new Set([...removed, ...changed]);
  const out = dropVanished(
    withoutFields(owners, (key) => taken.has(key)),
    after,
    parse,
  );
  const mine = out.find((o) => sameEntry(o, ctx.manager, 'Update', ctx.subresource));
  const fields = new Set(mine?.fields ?? []);
  for (const key of [...changed, ...created]) fields.add(key);
  return withEntry(out, ctx, 'Update', fields);
}

/** The outcome of an apply: the merged object and new ownership, or the conflicts that stop it. */
export type ApplyOutcome =
  | { readonly ok: true; readonly object: JsonObject; readonly owners: FieldOwnership[] }
  | { readonly ok: false; readonly conflicts: readonly FieldConflict[] };

/**
 * Server-side apply of a configuration by `ctx.manager`:
 * - the configuration's leaves (nulls dropped) are the fields the manager now owns;
 * - a leaf whose live value differs and that another manager owns (or overlaps) is a conflict;
 *   with `force` the manager takes it over, otherwise nothing changes;
 * - leaves the manager applied before but omits now are removed, unless someone else owns them;
 * - equal values are shared: both managers keep owning them.
 * Fields outside `ctx.scope` (status for the main resource, all but status for `/status`) are ignored.
 */
export function applyConfiguration(
  live: JsonObject | undefined,
  owners: readonly FieldOwnership[],
  config: JsonObject,
  ctx: ManagerContext,
  force: boolean,
): ApplyOutcome {
  const applied = new Map([...leaves(config, ctx.scope)].filter(([, value]) => value !== null));
  const current: JsonObject = live === undefined ? {} : cloneJson(live);
  const others = owners.filter((o) => o.manager !== ctx.manager);

  const conflicts: FieldConflict[] = [];
  const seen = new Set<string>();
  for (const [key, value] of applied) {
    const path = pathFromKey(key);
    const at = readPath(current, path);
    if (at.found && jsonEqual(at.value, value)) continue;
    // An empty object merges into what is there, so it cannot clash with fields inside it.
    const merges = isJsonObject(value) && Object.keys(value).length === 0;
    for (const o of others) {
      for (const owned of o.fields) {
        const ownedPath = pathFromKey(owned);
        if (!overlaps(ownedPath, path)) continue;
        if (merges && ownedPath.length > path.length) continue;
        if (ownsOnlyTheMap(current, ownedPath, path)) continue;
        const id = `${o.manager}\u0000${o.operation}\u0000${owned}`;
        if (seen.has(id)) continue;
        seen.add(id);
        conflicts.push({
          manager: o.manager,
          operation: o.operation,
          apiVersion: o.apiVersion,
          path: pathFromKey(owned),
        });
      }
    }
  }
  if (conflicts.length > 0 && !force) return { ok: false, conflicts };

  const mine = owners.find((o) => sameEntry(o, ctx.manager, 'Apply', ctx.subresource));
  for (const key of mine?.fields ?? []) {
    if (applied.has(key)) continue;
    const path = pathFromKey(key);
    const ownedElsewhere = owners.some(
      (o) =>
        o !== mine &&
        [...o.fields].some((other) => {
          const otherPath = pathFromKey(other);
          return overlaps(otherPath, path) && !ownsOnlyTheMap(current, otherPath, path);
        }),
    );
    if (!ownedElsewhere) removePath(current, path);
  }
  for (const [key, value] of applied) writePath(current, pathFromKey(key), value);
  // Forced conflicts: each conflicting manager loses the field it owned.
  const lost = new Map<string, Set<string>>();
  for (const c of conflicts) {
    const keys = lost.get(c.manager) ?? new Set<string>();
    keys.add(pathKey(c.path));
    lost.set(c.manager, keys);
  }
  const out = dropVanished(
    owners.map((o) => {
      const keys = lost.get(o.manager);
      return keys === undefined ? o : (withoutFields([o], (key) => keys.has(key))[0] as FieldOwnership);
    }),
    current,
  );
  return { ok: true, object: current, owners: withEntry(out, ctx, 'Apply', new Set(applied.keys())) };
}
