import { isLabelValue } from '@nodewright/core/apis';
import { readinessFromReadyCondition } from '@nodewright/core/lifecycle';
import type { ProviderContext, ProviderInstance, ProviderPlugin } from '@nodewright/core/plugin';
import { NodeClasses, nodeClassKind } from './apis/nodeclass.js';
import { CloudClient } from './cloud/cloud-client.js';
import { Provider } from './cloudprovider/cloud-provider.js';
import { NodeClassStatusController } from './controllers/nodeclass-status.js';
import { ProviderName } from './provider-name.js';

/** The settings `--set key=value` accepts, with their `--help` line. */
export const SettingDescriptions: Readonly<Record<string, string>> = {
  endpoint: 'the cloud API base URL, e.g. http://127.0.0.1:8700 (required)',
};

/** The provider's settings, parsed. */
export interface Settings {
  readonly endpoint: string;
}

/**
 * Parses the `--set` settings.
 * @throws Error naming every unknown key, a missing endpoint, or one that is not a URL.
 */
export function parseSettings(settings: Readonly<Record<string, string>>): Settings {
  const unknown = Object.keys(settings).filter((key) => !(key in SettingDescriptions));
  if (unknown.length > 0) {
    const known = Object.keys(SettingDescriptions).join(', ');
    throw new Error(`unknown ${ProviderName} provider settings: ${unknown.join(', ')} (known: ${known})`);
  }
  const endpoint = settings.endpoint;
  if (endpoint === undefined || !URL.canParse(endpoint)) {
    throw new Error(`setting endpoint: ${JSON.stringify(endpoint ?? '')} is not a URL (--set endpoint=URL)`);
  }
  return { endpoint };
}

/** Builds the provider for one operator process (see `providerPlugin`). */
export async function createProvider(context: ProviderContext): Promise<ProviderInstance> {
  const settings = parseSettings(context.settings);
  if (!isLabelValue(context.clusterName)) {
    throw new Error(`--cluster-name ${JSON.stringify(context.clusterName)} cannot tag instances`);
  }
  const logger = context.logger.child({ provider: ProviderName });
  const client = new CloudClient({
    endpoint: settings.endpoint,
    timers: context.timers,
    onRetry: (error, attempt, delayMs) =>
      logger.warn({ attempt, 'delay-ms': delayMs, error: error.message }, 'cloud call failed, retrying'),
  });
  const cloudProvider = new Provider({
    client,
    cluster: context.cluster,
    clock: context.clock,
    clusterName: context.clusterName,
    unavailableOfferings: context.unavailableOfferings,
    logger,
  });
  return {
    cloudProvider,
    controllers: [new NodeClassStatusController({ cluster: context.cluster, clock: context.clock })],
    nodeClassReadiness: readinessFromReadyCondition(context.cluster, [NodeClasses]),
    nodeClassTypes: [NodeClasses],
  };
}

/**
 * The plug-in object: `nodewright controller --provider-module <this package>` loads it, and
 * `bin.ts` runs it in a controller binary of its own.
 */
export const providerPlugin: ProviderPlugin = {
  name: ProviderName,
  kinds: [nodeClassKind],
  settings: SettingDescriptions,
  create: createProvider,
};
