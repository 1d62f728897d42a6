import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type MethodPermissions, ProviderPermissions, requiredPermissions } from './permissions.js';

/** The includedPermissions of the README's custom role (the YAML block under its heading). */
function readmeRolePermissions(): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## IAM'));
  const block = /```yaml\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README: no yaml block under "## IAM"');
  return [...block.matchAll(/^\s+- ([a-zA-Z.]+)$/gm)].map((m) => m[1]!).sort();
}

/** The SDK calls gce-sdk.ts makes: `<client>.<method>(` on the four Compute clients. */
function sdkCallsInSource(): string[] {
  const source = readFileSync(new URL('./gce-sdk.ts', import.meta.url), 'utf8');
  const calls = [...source.matchAll(/\b(instances|machineTypes|operations|images)\.([a-zA-Z]+)\(/g)]
    .map((m) => `${m[1]}.${m[2]}`)
    .filter((c) => !c.endsWith('.close'));
  return [...new Set(calls)].sort();
}

describe('ProviderPermissions', () => {
  it('covers exactly the SDK calls the compute port makes', () => {
    const mapped = Object.values(ProviderPermissions.compute as Record<string, MethodPermissions>).map(
      (m) => m.sdkMethod,
    );
    expect([...new Set(mapped)].sort()).toEqual(sdkCallsInSource());
  });

  it('is exactly what the README role grants: nothing missing, nothing unused', () => {
    expect(readmeRolePermissions()).toEqual(requiredPermissions());
  });
});
