import type { KindDefinition } from '@nodewright/core/apis';
import type { ProviderPlugin } from '@nodewright/core/operator';
import { aksNodeClassKind } from '../apis/index.js';
import { azureCatalogProviders } from '../catalog/catalog-providers.js';
import { AzureSettingKeys, parseAzureSettings } from './settings.js';

/**
 * `--provider azure`: AKSNodeClass (images and readiness resolved by `aksnodeclass.status`), VM
 * sizes from Resource SKUs, prices from the Retail Prices API, one VM and NIC per NodeClaim with
 * bounded failover across offerings. Settings: see AzureSettingKeys and the README.
 */
export const azureProviderPlugin: ProviderPlugin = {
  name: 'azure',
  kinds: [aksNodeClassKind as KindDefinition],
  settings: AzureSettingKeys,
  secretSettings: ['staticAccessToken'],
  catalogs: azureCatalogProviders,
  async create(context) {
    const settings = parseAzureSettings(context.settings);
    // Imported here, not at the top: the Azure SDK and the provider's controllers load only
    // when this provider runs, so a CLI command that needs only the kinds or catalogs stays quick.
    const [{ azureClients }, { createAzureProvider }] = await Promise.all([
      import('../sdk/azure-clients.js'),
      import('./plugin.js'),
    ]);
    return createAzureProvider(context, settings, await azureClients(settings));
  },
};
