import type { ProviderNames } from './provider-names.js';

/**
 * Versions of the tools a generated package builds and tests with: the ones nodewright itself is
 * built with (a unit test holds them equal to the repository's), so generated code compiles and
 * its suites run as they do here.
 */
export const ScaffoldToolVersions = {
  '@types/node': '24.19.4',
  typescript: '5.9.3',
  vitest: '4.1.12',
  zod: '4.6.7',
} as const;

/** The package name of a generated provider. */
export function providerPackageName(names: ProviderNames): string {
  return `nodewright-provider-${names.name}`;
}

/**
 * The generated package.json: the provider as an ES module whose default export is the plug-in
 * object, its controller binary, and the nodewright packages at `^version` (the CLI's own), as
 * an author installs them from the registry.
 */
export function providerPackageJson(names: ProviderNames, nodewrightVersion: string): string {
  const range = `^${nodewrightVersion}`;
  const manifest = {
    name: providerPackageName(names),
    version: '0.1.0',
    description: `The ${names.name} provider for nodewright`,
    license: 'Apache-2.0',
    type: 'module',
    engines: { node: '>=24' },
    // `main` as well, for tools that read only it (exports win wherever both are read).
    main: './dist/index.js',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    bin: { [`${names.name}-controller`]: './dist/bin.js' },
    files: ['dist', 'crds'],
    scripts: {
      build: 'tsc -p tsconfig.build.json',
      typecheck: 'tsc -p tsconfig.json',
      test: 'vitest run --project contract',
      'test:e2e': 'vitest run --project e2e',
    },
    dependencies: {
      '@nodewright/cli': range,
      '@nodewright/core': range,
      zod: ScaffoldToolVersions.zod,
    },
    devDependencies: {
      '@nodewright/conformance': range,
      '@types/node': ScaffoldToolVersions['@types/node'],
      typescript: ScaffoldToolVersions.typescript,
      vitest: ScaffoldToolVersions.vitest,
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
