import { describe, expect, it } from 'vitest';
import { MaxNestingDepth, tooDeepPath } from './nesting.js';

/** `depth` levels of `{ a: ... }` around `leaf`. */
function nested(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('tooDeepPath', () => {
  it('accepts values up to the limit, scalars included', () => {
    // The outermost object is the first level: three levels of `{ a: ... }` around a number.
    expect(tooDeepPath(nested(3), 3)).toBeUndefined();
    expect(tooDeepPath(nested(2, {}), 3)).toBeUndefined();
    expect(tooDeepPath('text')).toBeUndefined();
    expect(tooDeepPath(null)).toBeUndefined();
    expect(tooDeepPath(nested(MaxNestingDepth - 1, {}))).toBeUndefined();
  });

  it('names the path to the first object past the limit', () => {
    expect(tooDeepPath(nested(3, {}), 3)).toEqual(['a', 'a', 'a']);
    expect(tooDeepPath(nested(MaxNestingDepth, {}))).toHaveLength(MaxNestingDepth);
  });

  it('counts arrays as levels and names their indices', () => {
    const value = { spec: { items: [1, { x: [[{}]] }] } };
    expect(tooDeepPath(value, 5)).toEqual(['spec', 'items', 1, 'x', 0]);
    expect(tooDeepPath(value, 6)).toEqual(['spec', 'items', 1, 'x', 0, 0]);
    expect(tooDeepPath(value, 7)).toBeUndefined();
  });

  it('finds a deep value beside shallow siblings, whichever sibling it is', () => {
    expect(tooDeepPath({ b: 1, c: [nested(5)], d: {} }, 4)).toEqual(['c', 0, 'a', 'a']);
    expect(tooDeepPath({ first: nested(5), b: 1 }, 4)).toEqual(['first', 'a', 'a', 'a']);
  });

  it('walks a value far deeper than the stack allows', () => {
    expect(tooDeepPath(nested(200_000))).toHaveLength(MaxNestingDepth);
  });
});
