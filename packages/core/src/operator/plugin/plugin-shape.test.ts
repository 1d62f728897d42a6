import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { asProviderPlugin, providerPluginProblems } from './plugin-shape.js';

const good = {
  name: 'mycloud',
  kinds: [
    { apiVersion: 'mycloud.example.com/v1', kind: 'MyNodeClass', namespaced: false, schema: z.object({}) },
  ],
  settings: { region: 'The region.' },
  catalogs: [{ name: 'mycloud', description: 'types', catalog: () => ({}) }],
  create: async () => ({}),
};

describe('providerPluginProblems', () => {
  it('accepts the documented shape, catalogs and converters being optional', () => {
    expect(providerPluginProblems(good)).toEqual([]);
    const { catalogs: _, ...bare } = good;
    expect(providerPluginProblems(bare)).toEqual([]);
  });

  it('names every malformed field', () => {
    expect(
      providerPluginProblems({
        name: 'My Cloud',
        kinds: [{ apiVersion: '', kind: 'K', schema: {} }],
        settings: { region: 3 },
        catalogs: [{ name: 'x' }],
        converters: {},
      }),
    ).toEqual([
      'name: must be a lower-case name such as "aws" (letters, digits, "-"), not "My Cloud"',
      'create: must be a function, not undefined',
      'kinds[0].apiVersion: must be a non-empty string',
      'kinds[0].schema: must be a zod schema',
      'settings.region: must be a one-line description string',
      'catalogs[0]: must have a name and a catalog() function',
      'converters: must be an array of Converters',
    ]);
    expect(providerPluginProblems(undefined)).toEqual(['is undefined, not an object']);
  });

  it('asProviderPlugin throws naming where the value came from', () => {
    expect(asProviderPlugin(good, 'pkg')).toBe(good);
    expect(() => asProviderPlugin({ ...good, create: 1 }, 'my-pkg')).toThrow(
      'my-pkg: not a nodewright provider plug-in object: create: must be a function, not 1',
    );
  });
});
