import { readinessFromReadyCondition } from '@nodewright/core/lifecycle';
import type { ProviderContext, ProviderInstance } from '@nodewright/core/operator';
import { Instances } from '../instance/instances.js';
import { InstanceTypeProvider } from '../instancetype/provider.js';
import { EvictionWatcher } from '../interruption/eviction-watcher.js';
import { InterruptionSources, ScheduledEventWatcher } from '../interruption/scheduled-events.js';
import { Launcher } from '../launch/launcher.js';
import { unusableSshPublicKey } from '../launch/ssh-key.js';
import { NodeImageResolver } from '../nodeclass/image-resolver.js';
import { AKSNodeClasses, NodeClassReader } from '../nodeclass/reader.js';
import { AKSNodeClassStatusController } from '../nodeclass/status-controller.js';
import { PricingProvider } from '../pricing/provider.js';
import type { ArmClients } from '../sdk/arm-clients.js';
import { AzureCloudProvider } from './azure-cloud-provider.js';
import type { AzureSettings } from './settings.js';

/** The provider, and when its first reads of Resource SKUs and prices have finished. */
export interface AzureProviderInstance extends ProviderInstance {
  /** Resolves once the first refreshes are done (failed ones logged); never rejects. */
  readonly started: Promise<void>;
}

/** Composes the provider from the context, settings and SDK ports (the seam tests and the conformance suite use). */
export function createAzureProvider(
  context: ProviderContext,
  settings: AzureSettings,
  clients: ArmClients & { destroy?(): void },
): AzureProviderInstance {
  const logger = context.logger.child({ logger: 'azure' });
  const { clock, timers, clusterName, unavailableOfferings } = context;
  const prices = new PricingProvider({ api: clients.prices, region: settings.location, timers, logger });
  const instanceTypes = new InstanceTypeProvider({
    compute: clients.compute,
    prices,
    region: settings.location,
    timers,
    logger,
    unavailableOfferings,
  });
  const placement = {
    subscriptionId: settings.subscriptionId,
    resourceGroup: settings.nodeResourceGroup,
    location: settings.location,
  };
  const instances = new Instances({
    compute: clients.compute,
    network: clients.network,
    resourceGroup: settings.nodeResourceGroup,
    clusterName,
  });
  const launcher = new Launcher({
    compute: clients.compute,
    network: clients.network,
    instances,
    unavailableOfferings,
    logger,
    ...placement,
    clusterName,
    clusterEndpoint: settings.clusterEndpoint,
    defaultSubnetID: settings.subnetID,
    sshPublicKey: settings.sshPublicKey ?? unusableSshPublicKey(),
    skuFact: (size) => instanceTypes.offered().find((s) => s.fact.name === size)?.fact,
    maxAttempts: settings.maxLaunchAttempts,
  });
  const cloudProvider = new AzureCloudProvider({
    nodeClasses: new NodeClassReader(context.cluster),
    instanceTypes,
    launcher,
    instances,
    placement,
    logger,
    unavailableOfferings,
    // Scheduled events give warning (a Preempt's NotBefore is at least 30 s away); the
    // eviction watcher catches the VMs that go without one.
    interruptions: new InterruptionSources([
      new ScheduledEventWatcher(context.cluster),
      new EvictionWatcher(instances, placement),
    ]),
  });
  const statusController = new AKSNodeClassStatusController({
    cluster: context.cluster,
    clock,
    kubernetesVersion: settings.kubernetesVersion,
    images: new NodeImageResolver({
      compute: clients.compute,
      location: settings.location,
      clock,
      ...(settings.imageRefreshMs !== undefined ? { refreshMs: settings.imageRefreshMs } : {}),
      ...(settings.nodeImageVersion !== undefined ? { defaultVersion: settings.nodeImageVersion } : {}),
    }),
    defaultSubnetID: settings.subnetID,
  });
  prices.start();
  instanceTypes.start();
  return {
    started: Promise.all([prices.refresh(), instanceTypes.refresh()]).then(() => undefined),
    cloudProvider,
    controllers: [statusController],
    nodeClassReadiness: readinessFromReadyCondition(context.cluster, [AKSNodeClasses]),
    nodeClassTypes: [AKSNodeClasses],
    close: async () => {
      instanceTypes.stop();
      prices.stop();
      clients.destroy?.();
    },
  };
}
