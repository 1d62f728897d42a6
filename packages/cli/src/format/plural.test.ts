import { describe, expect, it } from 'vitest';
import { plural } from './plural.js';

describe('plural', () => {
  it('is singular for exactly one, plural otherwise (zero included)', () => {
    expect(plural(1, 'pod')).toBe('1 pod');
    expect(plural(0, 'pod')).toBe('0 pods');
    expect(plural(2, 'NodeClaim')).toBe('2 NodeClaims');
  });

  it('takes an irregular plural', () => {
    expect(plural(3, 'was', 'were')).toBe('3 were');
    expect(plural(1, 'was', 'were')).toBe('1 was');
  });
});
