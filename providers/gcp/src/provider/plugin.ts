import type { KindDefinition } from '@nodewright/core/apis';
import type { ProviderPlugin } from '@nodewright/core/operator';
import { gceNodeClassKind } from '../apis/index.js';
import { gcpCatalogProviders } from '../catalog/catalog-providers.js';
import { GcpSettingKeys, parseGcpSettings } from './settings.js';

/**
 * `--provider gcp`: GCENodeClass (images resolved by `gcenodeclass.status`), machine types from
 * the aggregated list, prices from the Cloud Billing Catalog, launches with instances.insert.
 * Settings: see GcpSettingKeys and the README.
 */
export const gcpProviderPlugin: ProviderPlugin = {
  name: 'gcp',
  kinds: [gceNodeClassKind as KindDefinition],
  settings: GcpSettingKeys,
  checkSettings(settings) {
    parseGcpSettings(settings);
  },
  catalogs: gcpCatalogProviders,
  async create(context) {
    const settings = parseGcpSettings(context.settings);
    // Imported here, not at the top: the SDK and the controllers load only when this provider
    // runs, so a CLI command that needs only the kinds or catalogs stays quick.
    const [{ gceSdk }, { createGcpProvider }] = await Promise.all([
      import('../sdk/gce-sdk.js'),
      import('./create-provider.js'),
    ]);
    return createGcpProvider(context, settings, await gceSdk(settings));
  },
};
