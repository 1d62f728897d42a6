import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot as root, workspacePackages } from './workspace-packages.js';

// Every workspace package is meant to be published as it is: a package missing its licence,
// description or repository would be refused by, or be useless on, the registry.
describe('workspace packages are publishable', () => {
  const packages = workspacePackages();

  it('finds the CLI, the core and every provider', () => {
    const names = packages.map((p) => p.manifest.name);
    for (const name of ['@nodewright/cli', '@nodewright/core', '@nodewright/aws', '@nodewright/kwok'])
      expect(names).toContain(name);
  });

  it.each(packages.map((p) => [p.dir, p.manifest] as const))(
    '%s has a name, description, licence, repository and public access',
    (dir, manifest) => {
      expect(manifest.name).toMatch(/^@nodewright\/[a-z-]+$/);
      expect(manifest.private).not.toBe(true);
      expect(manifest.description?.length ?? 0).toBeGreaterThan(20);
      expect(manifest.license).toBe('Apache-2.0');
      expect(manifest.repository?.type).toBe('git');
      expect(manifest.repository?.directory).toBe(dir);
      expect(manifest.publishConfig?.access).toBe('public');
      expect(manifest.files).toContain('dist');
    },
  );

  it('the repository carries the Apache-2.0 licence text the manifests name', () => {
    const licence = readFileSync(join(root, 'LICENSE'), 'utf8');
    expect(licence).toContain('Apache License');
    expect(licence).toContain('Version 2.0, January 2004');
  });
});
