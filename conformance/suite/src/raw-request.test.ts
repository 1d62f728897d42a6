import { describe, expect, it } from 'vitest';
import { warningsOf } from './raw-request.js';

describe('warningsOf', () => {
  it('reads the text of each warning header', () => {
    expect(warningsOf({ warning: '299 - "unknown format \\"x\\" ignored"' })).toEqual([
      'unknown format \\"x\\" ignored',
    ]);
    expect(warningsOf({ warning: '299 - "a", 299 - "b, c"' })).toEqual(['a', 'b, c']);
  });

  it('is empty without warnings', () => {
    expect(warningsOf({})).toEqual([]);
  });
});
