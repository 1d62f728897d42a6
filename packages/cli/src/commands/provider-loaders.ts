import type { ProviderPlugin } from '@nodewright/core/operator';

/** Imports a provider package and returns its plugin. */
export type ProviderLoader = () => Promise<ProviderPlugin>;

/**
 * Every provider `nodewright controller --provider` runs, by name, each loaded on demand: a
 * provider package brings its cloud SDK, and loading the AWS one costs a controller that runs
 * another provider some 70 MB of memory (23 MB of it heap) it would never use.
 */
export const providerLoaders: Readonly<Record<string, ProviderLoader>> = {
  kwok: async () => (await import('@nodewright/kwok')).kwokProviderPlugin,
  aws: async () => (await import('@nodewright/aws')).awsProviderPlugin,
};
