import type { ProviderPlugin } from '@nodewright/core/operator';
import { kwokNodeClassKind } from '../apis/kind.js';
import { kwokCatalogProvider } from '../catalog/catalog-provider.js';
import { KwokSettingDescriptions, parseKwokSettings } from './settings.js';

/**
 * `--provider kwok`: instances are KWOK Nodes in the cluster itself, launched from
 * KWOKNodeClasses (`karpenter.kwok.sh/v1alpha1`) with Karpenter's 144 KWOK instance types.
 * Faults (offerings without capacity, spot interruptions) come from the settings.
 */
export const kwokProviderPlugin: ProviderPlugin = {
  name: 'kwok',
  kinds: [kwokNodeClassKind],
  settings: KwokSettingDescriptions,
  checkSettings(settings) {
    parseKwokSettings(settings);
  },
  catalogs: [kwokCatalogProvider],
  // The cloud provider, its controllers and faults load only when the provider runs, so a CLI
  // command that needs only the kind or the catalog stays quick.
  create: async (context) => (await import('./create-provider.js')).createKwokProvider(context),
};
