import { describe, expect, it } from 'vitest';
import { parseResourceList } from './resource-list.js';
import { ResourceListMemo } from './resource-list-memo.js';

describe('ResourceListMemo', () => {
  it('gives what a fresh parse gives, once per record object', () => {
    const memo = new ResourceListMemo();
    const raw = { cpu: '3900m', memory: '15Gi', pods: '110' };
    const first = memo.of(raw);
    expect(first).toEqual(parseResourceList(raw));
    expect(memo.of(raw)).toBe(first);
    // An equal record that is another object is parsed again: identity is the contract.
    const again = memo.of({ ...raw });
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(memo.of(undefined).size).toBe(0);
  });

  it('throws as the parse does and remembers nothing then', () => {
    const memo = new ResourceListMemo();
    const bad = { cpu: 'lots' };
    expect(() => memo.of(bad)).toThrow(/cpu/);
    expect(() => memo.of(bad)).toThrow(/cpu/);
  });
});
