import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root, as the root-level tests see it. */
export const repositoryRoot = resolve(import.meta.dirname, '..');

/** The fields of a workspace package's manifest that the root-level tests check. */
export interface Manifest {
  readonly name?: string;
  readonly private?: boolean;
  readonly description?: string;
  readonly license?: string;
  readonly repository?: { readonly type?: string; readonly url?: string; readonly directory?: string };
  readonly publishConfig?: { readonly access?: string };
  readonly files?: readonly string[];
}

/**
 * Every workspace package: each folder of packages/ and providers/ with a package.json, and the
 * conformance package; `dir` is relative to the repository root.
 */
export function workspacePackages(root = repositoryRoot): { dir: string; manifest: Manifest }[] {
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
