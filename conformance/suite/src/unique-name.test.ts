import { describe, expect, it } from 'vitest';
import { nameOf, withNameSuffix } from './unique-name.js';

describe('withNameSuffix', () => {
  it('appends the suffix without touching the original', () => {
    const original = { kind: 'NodePool', metadata: { name: 'default', labels: { a: 'b' } } };
    const renamed = withNameSuffix(original, 'x7k2');
    expect(renamed).toEqual({ kind: 'NodePool', metadata: { name: 'default-x7k2', labels: { a: 'b' } } });
    expect(original.metadata.name).toBe('default');
  });

  it('keeps an invalid name invalid and a missing name missing', () => {
    expect(nameOf(withNameSuffix({ metadata: { name: 'General_Purpose' } }, 'ab12'))).toBe(
      'General_Purpose-ab12',
    );
    expect(nameOf(withNameSuffix({ metadata: { labels: {} } }, 'ab12'))).toBeUndefined();
  });

  it('refuses a suffix that could change validity', () => {
    expect(() => withNameSuffix({ metadata: { name: 'a' } }, 'A_')).toThrow(/lower-case/);
  });
});
