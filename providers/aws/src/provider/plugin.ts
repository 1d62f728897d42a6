import type { KindDefinition } from '@nodewright/core/apis';
import type { ProviderPlugin } from '@nodewright/core/operator';
import { ec2NodeClassKind } from '../apis/index.js';
import { awsCatalogProvider, awsRegionCatalogProviders } from '../catalog/catalog-providers.js';
import { ec2NodeClassV1beta1Converter } from '../conversion/ec2nodeclass-v1beta1.js';
import { AwsSettingKeys, parseAwsSettings } from './settings.js';

/**
 * `--provider aws`: EC2NodeClass (status resolved by `ec2nodeclass.status`, instance profile and
 * launch templates cleaned up by `ec2nodeclass.termination`), instance types and prices from EC2 and the Pricing API,
 * launches with CreateFleet, interruptions from SQS. Settings: see AwsSettingKeys and the README.
 */
export const awsProviderPlugin: ProviderPlugin = {
  name: 'aws',
  kinds: [ec2NodeClassKind as KindDefinition],
  settings: AwsSettingKeys,
  secretSettings: ['accessKeyId', 'secretAccessKey', 'sessionToken'],
  checkSettings(settings) {
    parseAwsSettings(settings);
  },
  catalogs: [awsCatalogProvider, ...awsRegionCatalogProviders],
  converters: [ec2NodeClassV1beta1Converter],
  async create(context) {
    const settings = parseAwsSettings(context.settings);
    // Imported here, not at the top: the SDK and the controllers load only when this provider
    // runs, so a CLI command that needs only the kinds, converters or catalogs stays quick.
    const [{ awsClients }, { createAwsProvider }] = await Promise.all([
      import('./aws-clients.js'),
      import('./create-provider.js'),
    ]);
    return createAwsProvider(context, settings, await awsClients(settings));
  },
};
