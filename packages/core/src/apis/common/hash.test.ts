import { expect, test } from 'vitest';
import { asSet, canonicalJson, stableHash } from './hash.js';

test('canonical JSON sorts keys at every level and drops undefined members', () => {
  expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: undefined, x: 0 }], c: null } })).toBe(
    '{"a":{"c":null,"d":[2,{"x":0,"z":1}]},"b":1}',
  );
});

test('sets ignore order; hashes are stable and differ for different values', () => {
  expect(asSet([{ k: 'b' }, { k: 'a' }])).toEqual([{ k: 'a' }, { k: 'b' }]);
  expect(asSet([])).toBeUndefined();
  expect(stableHash({ a: 1, b: 2 })).toBe(stableHash({ b: 2, a: 1 }));
  expect(stableHash({ a: 1 })).not.toBe(stableHash({ a: 2 }));
  expect(stableHash({ a: 1 })).toMatch(/^[0-9]+$/);
});
