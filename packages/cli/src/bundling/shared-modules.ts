/**
 * The packages the bundled CLI (dist/bundle, see scripts/bundle.ts) holds and shares with the
 * modules it loads from outside itself: the cloud providers' packages and `--provider-module`
 * plug-ins import `@nodewright/core` and `zod` by name, and must get the bundle's instances of
 * them (one copy of each class, schema and module state), not a second copy from node_modules.
 * `@nodewright/core/testing` is left out: it is for a provider's tests, not for the CLI.
 */
export const SharedSpecifiers: readonly string[] = [
  '@nodewright/core',
  ...[
    'apis',
    'scheduling',
    'cloudprovider',
    'clock',
    'manifests',
    'kube',
    'metrics',
    'catalog',
    'simulation',
    'operator',
    'lifecycle',
    'disruption',
    'state',
    'snapshot',
    'provisioning',
    'plugin',
  ].map((entry) => `@nodewright/core/${entry}`),
  'zod',
];

/**
 * The bundle's entry file (without `.js`) that re-exports `specifier`: flat in the bundle's
 * folder, beside its chunks, so every output file sits at the same depth.
 */
export function sharedModuleName(specifier: string): string {
  return `shared-${specifier.replace(/^@/, '').replaceAll('/', '-')}`;
}
