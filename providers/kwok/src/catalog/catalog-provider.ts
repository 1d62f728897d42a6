import type { CatalogProvider } from '@nodewright/core/catalog';

// The `--catalog kwok` name apart from the generator and provider.ts: listing it (the CLI does
// for every command) loads neither, nor core's catalog and instance-type code they import.

/** `--catalog kwok`: Karpenter's KWOK instance types, for examples, tests and simulation. */
export const kwokCatalogProvider: CatalogProvider = {
  name: 'kwok',
  description:
    "Karpenter's KWOK types: 1-256 vCPU, c/s/m = 2/4/8 GiB per vCPU, amd64/arm64, linux/windows, test-zone-a..d, spot at 0.7x",
  catalog: async () => (await import('./generate.js')).generateKwokCatalog(),
};
