import { describe, expect, it } from 'vitest';
import providerPlugin, { NodeClassKindName, ProviderName, parseSettings } from '../src/index.js';

describe('the plug-in object', () => {
  it('is the default export, named acme, with its NodeClass kind', () => {
    expect(providerPlugin.name).toBe(ProviderName);
    expect(providerPlugin.kinds.map((k) => k.kind)).toEqual([NodeClassKindName]);
  });

  it('refuses unknown settings and a missing endpoint, naming them', () => {
    expect(() => parseSettings({ endpoint: 'http://127.0.0.1:1', region: 'x' })).toThrow(/region/);
    expect(() => parseSettings({})).toThrow(/setting endpoint: "" is not a URL/);
  });
});
