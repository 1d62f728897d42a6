import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every workspace package is meant to be published as it is: a package missing its licence,
// description or repository would be refused by, or be useless on, the registry.
const root = resolve(import.meta.dirname, '..');

interface Manifest {
  readonly name?: string;
  readonly private?: boolean;
  readonly description?: string;
  readonly license?: string;
  readonly repository?: { readonly type?: string; readonly url?: string; readonly directory?: string };
  readonly publishConfig?: { readonly access?: string };
  readonly files?: readonly string[];
}

function workspacePackages(): { dir: string; manifest: Manifest }[] {
  const dirs = ['packages', 'providers'].flatMap((parent) =>
    readdirSync(join(root, parent), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, parent, d.name, 'package.json')))
      .map((d) => `${parent}/${d.name}`),
  );
  return [...dirs, 'conformance'].map((dir) => ({
    dir,
    manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest,
  }));
}

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
