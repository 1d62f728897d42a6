import { describe, expect, it } from 'vitest';
import { diffFields } from './field-changes.js';
import type { JsonObject, JsonValue } from './json.js';
import { type FieldScope, leaves, maps } from './managed-fields.js';

/** The changes by comparing `leaves` and `maps` in full: what `diffFields` must equal. */
function reference(before: JsonObject, after: JsonObject, scope: FieldScope) {
  const old = leaves(before, scope);
  const now = leaves(after, scope);
  const oldMaps = maps(before, scope);
  return {
    changed: [...now]
      .filter(([k, v]) => !old.has(k) || JSON.stringify(old.get(k)) !== JSON.stringify(v))
      .map(([k]) => k),
    removed: [...old.keys()].filter((k) => !now.has(k)).sort(),
    created: [...maps(after, scope)].filter((k) => !oldMaps.has(k)),
  };
}

/** A small seeded generator, so a failure repeats. */
function generator(seed: number) {
  let state = seed;
  const int = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const value = (depth: number): JsonValue => {
    switch (int(depth > 2 ? 4 : 7)) {
      case 0:
        return int(3);
      case 1:
        return ['a', 'b', 'c'][int(3)] as string;
      case 2:
        return int(2) === 0 ? null : true;
      case 3:
        return Array.from({ length: int(3) }, () => int(3));
      default:
        return object(depth + 1);
    }
  };
  const object = (depth: number): JsonObject => {
    const out: JsonObject = {};
    for (let i = int(4); i > 0; i--) out[['x', 'y', 'z', 'w'][int(4)] as string] = value(depth);
    return out;
  };
  /** A changed copy that shares some subtrees with the original, as stored versions do. */
  const mutate = (obj: JsonValue, depth: number): JsonValue => {
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj) || int(3) === 0) {
      return int(2) === 0 ? obj : value(depth);
    }
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(obj)) {
      const r = int(5);
      if (r === 0) continue; // dropped
      out[k] = r === 1 ? mutate(v, depth + 1) : v; // changed, or shared
    }
    if (int(3) === 0) out[['x', 'y', 'z', 'w'][int(4)] as string] = value(depth);
    return out;
  };
  const pod = (): JsonObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'p',
      resourceVersion: String(int(9)),
      labels: object(2),
      ...(int(2) === 0 ? { finalizers: ['a', 'b', 'c'].slice(int(3)) } : {}),
    },
    spec: object(1),
    ...(int(3) === 0 ? {} : { status: object(1) }),
  });
  return { int, pod, mutate };
}

describe('diffFields', () => {
  it('finds what comparing every leaf and map finds, in the same order', () => {
    const { int, pod, mutate } = generator(11);
    for (let i = 0; i < 400; i++) {
      const before = pod();
      const after = int(6) === 0 ? pod() : (mutate(before, 0) as JsonObject);
      for (const scope of ['all', 'main', 'status'] as const) {
        const found = diffFields(before, after, scope);
        expect({ ...found, removed: [...found.removed].sort() }).toEqual(reference(before, after, scope));
      }
    }
  });

  it('sees nothing in a subtree the new version shares, and reads set lists item by item', () => {
    const spec = { containers: [{ name: 'c' }], nodeName: 'n1' };
    const before = { metadata: { finalizers: ['a', 'b'] }, spec, status: { phase: 'Pending' } };
    const after = { metadata: { finalizers: ['b', 'c'] }, spec, status: { phase: 'Running', ready: {} } };
    expect(diffFields(before, after, 'all')).toEqual({
      changed: [
        '["f:metadata","f:finalizers","v:\\"c\\""]',
        '["f:status","f:phase"]',
        '["f:status","f:ready"]',
      ],
      removed: ['["f:metadata","f:finalizers","v:\\"a\\""]'],
      created: [],
    });
    expect(diffFields(before, after, 'main').changed).toEqual(['["f:metadata","f:finalizers","v:\\"c\\""]']);
  });
});
