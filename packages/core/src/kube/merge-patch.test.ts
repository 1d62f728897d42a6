import { describe, expect, it } from 'vitest';
import { applyMergePatch, createMergePatch } from './merge-patch.js';

describe('applyMergePatch (RFC 7386)', () => {
  it('merges objects, deletes on null and replaces arrays and scalars', () => {
    const target = { a: 'b', c: { d: 'e', f: 'g' }, list: [1, 2, 3], keep: true };
    const patch = { a: 'z', c: { f: null, h: 'i' }, list: [4], keep: null };
    expect(applyMergePatch(target, patch)).toEqual({ a: 'z', c: { d: 'e', h: 'i' }, list: [4] });
  });

  it('leaves the target untouched', () => {
    const target = { spec: { replicas: 1 } };
    applyMergePatch(target, { spec: { replicas: 2 } });
    expect(target).toEqual({ spec: { replicas: 1 } });
  });

  it('follows the RFC examples for non-object patches and targets', () => {
    expect(applyMergePatch({ a: 'b' }, ['c'])).toEqual(['c']);
    expect(applyMergePatch({ a: 'foo' }, 'bar')).toBe('bar');
    expect(applyMergePatch({ e: null }, { a: 1 })).toEqual({ e: null, a: 1 });
    expect(applyMergePatch(['a', 'b'], { a: 'b', c: null })).toEqual({ a: 'b' });
    expect(applyMergePatch({}, { a: { bb: { ccc: null } } })).toEqual({ a: { bb: {} } });
  });
});

describe('createMergePatch', () => {
  it('yields the patch that turns one object into the other', () => {
    const from = { metadata: { labels: { a: '1', b: '2' } }, spec: { list: [1], x: 1 } };
    const to = { metadata: { labels: { a: '1', c: '3' } }, spec: { list: [1, 2], x: 1 } };
    const patch = createMergePatch(from, to);
    expect(patch).toEqual({ metadata: { labels: { b: null, c: '3' } }, spec: { list: [1, 2] } });
    expect(applyMergePatch(from, patch)).toEqual(to);
    expect(createMergePatch(to, to)).toEqual({});
  });
});
