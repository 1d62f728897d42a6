import type { z } from 'zod';

type Def = { readonly type: string } & Record<string, unknown>;

const defOf = (schema: unknown): Def | undefined =>
  (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** Wrappers whose inner schema describes the same value. */
const Wrappers = ['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'catch', 'readonly'];

/** The schemas a value may be checked against once wrappers, pipes and lazies are looked through. */
function unwrap(schema: unknown, depth = 0): unknown[] {
  const def = defOf(schema);
  if (def === undefined || depth > 32) return [];
  if (Wrappers.includes(def.type)) return unwrap(def.innerType, depth + 1);
  if (def.type === 'pipe') return unwrap(def.in, depth + 1);
  if (def.type === 'lazy') return unwrap((def.getter as () => unknown)(), depth + 1);
  if (def.type === 'union') return (def.options as unknown[]).flatMap((o) => unwrap(o, depth + 1));
  if (def.type === 'intersection') return [...unwrap(def.left, depth + 1), ...unwrap(def.right, depth + 1)];
  return [schema];
}

function child(schema: unknown, segment: PropertyKey): unknown[] {
  const def = defOf(schema);
  if (def === undefined) return [];
  if (def.type === 'object') {
    const shape = def.shape as Record<string, unknown>;
    return typeof segment === 'string' && Object.hasOwn(shape, segment) ? [shape[segment]] : [];
  }
  if (def.type === 'array' && typeof segment === 'number') return [def.element];
  if (def.type === 'record' && typeof segment === 'string') return [def.valueType];
  return [];
}

/**
 * The field names an object at `segments` may have, per the schema (every alternative of a
 * union counted): what a misspelt field is compared against. Empty where the schema does not
 * say (a record, a custom type, a path it does not reach).
 */
export function knownFieldsAt(schema: z.ZodType, segments: readonly PropertyKey[]): string[] {
  let at = unwrap(schema);
  for (const segment of segments) at = at.flatMap((s) => child(s, segment)).flatMap((s) => unwrap(s));
  const keys = new Set<string>();
  for (const s of at) {
    const def = defOf(s);
    if (def?.type === 'object') for (const key of Object.keys(def.shape as object)) keys.add(key);
  }
  return [...keys];
}
