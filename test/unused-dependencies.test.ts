import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot, workspacePackages } from './workspace-packages.js';

// Issue 16 item 6: a published package declares no runtime dependency it does not load, so
// installing it pulls nothing extra. A dependency only tests use belongs in devDependencies.
// The conformance package has its own, stricter check (conformance/src/package-dependencies.test.ts).

/** The non-test TypeScript sources under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !/\.test\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** Whether `source` loads `dependency` (or one of its subpaths) by an import, export or dynamic import. */
function loads(source: string, dependency: string): boolean {
  const name = dependency.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return new RegExp(`(?:from\\s*|import\\s*\\(\\s*|import\\s+)'${name}(?:/[^']*)?'`).test(source);
}

describe('runtime dependencies', () => {
  it('recognises the ways a source loads a package', () => {
    expect(loads("import { z } from 'zod';", 'zod')).toBe(true);
    expect(loads("const m = await import('@aws-sdk/client-ec2');", '@aws-sdk/client-ec2')).toBe(true);
    expect(loads("export { x } from 'prom-client/lib/x';", 'prom-client')).toBe(true);
    expect(loads("import 'reflect-metadata';", 'reflect-metadata')).toBe(true);
    expect(loads("import { z } from 'zod-extra';", 'zod')).toBe(false);
    expect(loads("// uses 'zod' somewhere", 'zod')).toBe(false);
  });

  const published = workspacePackages().filter((p) => p.dir !== 'conformance');
  it.each(published.map((p) => [p.dir] as const))(
    '%s loads every package it lists in dependencies',
    (dir) => {
      const manifest = JSON.parse(readFileSync(join(repositoryRoot, dir, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      const code = sources(join(repositoryRoot, dir, 'src')).map((f) => readFileSync(f, 'utf8'));
      const unused = Object.keys(manifest.dependencies ?? {}).filter((d) => !code.some((c) => loads(c, d)));
      expect(unused).toEqual([]);
    },
  );
});
