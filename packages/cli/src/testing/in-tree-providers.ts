import { awsProviderPlugin } from '@nodewright/aws';
import { azureProviderPlugin } from '@nodewright/azure';
import type { ProviderPlugin } from '@nodewright/core/plugin';
import { gcpProviderPlugin } from '@nodewright/gcp';
import { kwokProviderPlugin } from '@nodewright/kwok';

/** The built-in providers' plug-in objects, imported directly, for tests of the real composition. */
export const InTreeProviders: readonly ProviderPlugin[] = [
  kwokProviderPlugin,
  awsProviderPlugin,
  gcpProviderPlugin,
  azureProviderPlugin,
];
