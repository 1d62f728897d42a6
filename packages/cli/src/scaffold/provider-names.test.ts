import { describe, expect, it } from 'vitest';
import { providerNames } from './provider-names.js';

describe('providerNames', () => {
  it('derives the Pascal and compact spellings', () => {
    expect(providerNames('my-cloud')).toEqual({ name: 'my-cloud', pascal: 'MyCloud', compact: 'mycloud' });
    expect(providerNames('x9')).toEqual({ name: 'x9', pascal: 'X9', compact: 'x9' });
  });

  it('refuses names that cannot be a label value, URL scheme or CRD name, saying what a name is', () => {
    for (const bad of ['', 'My', '9cloud', 'a--b', 'a-', 'a_b', 'a'.repeat(25)]) {
      expect(() => providerNames(bad)).toThrow(/lower-case letter, then letters, digits and single dashes/);
    }
  });
});
