import { describe, expect, it } from 'vitest';
import { ensureObject, groupOf, jsonEqual, objectName } from './json.js';

describe('groupOf', () => {
  it('takes the group from group/version, the core group from a bare version', () => {
    expect(groupOf('karpenter.k8s.aws/v1beta1')).toBe('karpenter.k8s.aws');
    expect(groupOf('v1')).toBe('');
    expect(groupOf('a/b/c')).toBeUndefined();
  });
});

describe('jsonEqual', () => {
  it('compares structurally, ignoring key order', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: '1' }, { a: 1 })).toBe(false);
    expect(jsonEqual(undefined, undefined)).toBe(true);
    expect(jsonEqual(null, {})).toBe(false);
  });
});

describe('ensureObject', () => {
  it('returns the existing object or creates one', () => {
    const parent: Record<string, unknown> = { a: { x: 1 }, b: 'text' };
    expect(ensureObject(parent, 'a')).toEqual({ x: 1 });
    ensureObject(parent, 'b').y = 2;
    ensureObject(parent, 'c').z = 3;
    expect(parent).toEqual({ a: { x: 1 }, b: { y: 2 }, c: { z: 3 } });
  });
});

describe('objectName', () => {
  it('is Kind/name, with a position for unnamed objects', () => {
    expect(objectName({ kind: 'NodePool', metadata: { name: 'default' } }, 1)).toBe('NodePool/default');
    expect(objectName({ kind: 'NodePool' }, 3)).toBe('NodePool/<unnamed #3>');
    expect(objectName({}, 1)).toBe('<no kind>/<unnamed #1>');
  });
});
