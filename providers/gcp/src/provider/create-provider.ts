import type { ProviderContext, ProviderInstance } from '@nodewright/core/operator';
import { GceInstances } from '../instance/instances.js';
import { GceInstanceTypeProvider } from '../instancetype/provider.js';
import { ZoneOperationsSource } from '../interruption/zone-operations.js';
import { GceLauncher } from '../launch/launcher.js';
import type { RetryPolicy } from '../launch/retry.js';
import { GceNodeClassStatusController } from '../nodeclass/status-controller.js';
import { GcePricingProvider } from '../pricing/provider.js';
import type { BillingCatalogApi, GceComputeApi } from '../sdk/compute-api.js';
import { GcpCloudProvider } from './gcp-cloud-provider.js';
import { GCENodeClasses, gceNodeClassReader } from './nodeclass-reader.js';
import type { GcpSettings } from './settings.js';

/** The ports the provider talks through. */
export interface GcpClients {
  readonly compute: GceComputeApi;
  readonly billing: BillingCatalogApi;
}

/** Composes the provider from the context and clients (the seam tests and the conformance suite use). */
export function createGcpProvider(
  context: ProviderContext,
  settings: GcpSettings,
  clients: GcpClients,
  options: { readonly retry?: RetryPolicy } = {},
): ProviderInstance & { readonly instanceTypes: GceInstanceTypeProvider } {
  const logger = context.logger.child({ logger: 'gcp' });
  const { timers, clusterName, unavailableOfferings } = context;
  const prices = new GcePricingProvider({
    billing: clients.billing,
    region: settings.region,
    timers,
    logger,
  });
  const instanceTypes = new GceInstanceTypeProvider({
    compute: clients.compute,
    prices,
    region: settings.region,
    timers,
    logger,
    unavailableOfferings,
  });
  const zones = () => [...new Set(instanceTypes.facts().flatMap((f) => f.zones))].sort();
  const retry = options.retry === undefined ? {} : { retry: options.retry };
  const launcher = new GceLauncher({
    compute: clients.compute,
    timers,
    unavailableOfferings,
    logger,
    clusterName,
    region: settings.region,
    defaultNetwork: settings.network,
    launchMode: settings.launchMode,
    kubernetesVersion: settings.kubernetesVersion,
    ...retry,
  });
  const instances = new GceInstances({
    compute: clients.compute,
    timers,
    clusterName,
    zones,
    ...retry,
  });
  const interruptions = new ZoneOperationsSource({
    compute: clients.compute,
    project: settings.project,
    zones,
    clock: context.clock,
    timers,
    logger,
    unavailableOfferings,
  });
  const cloudProvider = new GcpCloudProvider({
    project: settings.project,
    nodeClasses: gceNodeClassReader(context.cluster),
    instanceTypes,
    launcher,
    instances,
    logger,
    unavailableOfferings,
    interruptions,
    kubernetesVersion: settings.kubernetesVersion,
  });
  prices.start();
  instanceTypes.start();
  return {
    cloudProvider,
    instanceTypes,
    controllers: [
      new GceNodeClassStatusController({
        cluster: context.cluster,
        clock: context.clock,
        compute: clients.compute,
        project: settings.project,
      }),
    ],
    nodeClassTypes: [GCENodeClasses],
    close: async () => {
      instanceTypes.stop();
      prices.stop();
      await clients.compute.close();
    },
  };
}
