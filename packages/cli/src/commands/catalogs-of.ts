import { CatalogProviders } from '@nodewright/core/catalog';
import type { ProviderPlugin } from '@nodewright/core/plugin';

/** The catalogs `--catalog NAME` resolves: each provider's plug-in object contributes its own. */
export function catalogsOf(providers: readonly ProviderPlugin[]): CatalogProviders {
  return new CatalogProviders(providers.flatMap((p) => p.catalogs ?? []));
}
