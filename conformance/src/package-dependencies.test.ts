import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// @nodewright/conformance is installed by provider packages outside this repository, where only
// its declared dependencies exist. Every module an entry point loads at run time, following
// relative and self imports from that entry's sources, may import only packages it declares
// (dependencies, or peerDependencies for what the user's test set-up brings), so no provider
// package or cloud SDK rides along on a path that does not declare it.

const Root = fileURLToPath(new URL('../', import.meta.url));
const manifest = JSON.parse(readFileSync(join(Root, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, { '@nodewright/source': string }>;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

/** Module specifiers a source file loads at run time (`import type` and `export type` are erased). */
function runtimeSpecifiers(source: string): string[] {
  const out: string[] = [];
  const statement = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^'"]*?)\s*from\s*'([^']+)'/g;
  for (const match of source.matchAll(statement)) {
    if (match[2] === undefined) out.push(match[4]!);
  }
  for (const match of source.matchAll(/(?:^|\n)\s*import\s+'([^']+)'/g)) out.push(match[1]!);
  for (const match of source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) out.push(match[1]!);
  return out;
}

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The bare packages an entry point reaches, with a file that imports each. */
function reachedPackages(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [resolve(Root, manifest.exports[entry]!['@nodewright/source'])];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of runtimeSpecifiers(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
        queue.push(existsSync(target) ? target : join(target, 'index.ts'));
      } else if (specifier.startsWith(`${manifest.name}/`) || specifier === manifest.name) {
        const sub = `.${specifier.slice(manifest.name.length)}`;
        const own = manifest.exports[sub];
        if (own === undefined) throw new Error(`${file} imports ${specifier}, which is not exported`);
        queue.push(resolve(Root, own['@nodewright/source']));
      } else if (!specifier.startsWith('node:')) {
        if (!packages.has(packageOf(specifier))) packages.set(packageOf(specifier), file);
      }
    }
  }
  return packages;
}

describe('@nodewright/conformance declares what its entry points load', () => {
  it('reads run-time imports, not type-only ones', () => {
    const source = `import type { A } from 'a';\nimport { type B, c } from 'b';\nexport type { D } from 'd';\nexport * from './e.js';\nconst f = await import('f');\nimport 'g';`;
    expect(runtimeSpecifiers(source).sort()).toEqual(['./e.js', 'b', 'f', 'g']);
  });

  for (const entry of Object.keys(manifest.exports)) {
    it(`${entry}: every package it loads is a dependency or a peer dependency`, () => {
      const declared = new Set([
        ...Object.keys(manifest.dependencies),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ]);
      const undeclared = [...reachedPackages(entry)]
        .filter(([name]) => !declared.has(name))
        .map(([name, file]) => `${name} (imported by ${file.slice(Root.length)})`);
      expect(undeclared).toEqual([]);
    });
  }

  it('the common entry points load no provider package and no cloud SDK', () => {
    const cloud = /^@nodewright\/(aws|azure|gcp|kwok|cli)$|^@aws-sdk\/|^@azure\/|^@google-cloud\//;
    for (const entry of ['.', './suite', './harness', './cluster']) {
      expect(
        [...reachedPackages(entry).keys()].filter((name) => cloud.test(name)),
        entry,
      ).toEqual([]);
    }
  });
});
