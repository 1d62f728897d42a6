import { isLabelValue } from '@nodewright/core/apis';
import { readinessFromReadyCondition } from '@nodewright/core/lifecycle';
import type { ProviderContext, ProviderInstance } from '@nodewright/core/operator';
import { SeededRandom } from '@nodewright/core/simulation';
import { KWOKNodeClasses } from '../apis/resource-type.js';
import { KwokCloudProvider } from '../cloudprovider/kwok-cloud-provider.js';
import { KwokNodeLabels } from '../cloudprovider/labels.js';
import { KwokNodeClassStatusController } from '../controllers/nodeclass-status-controller.js';
import { KwokInterruptions } from '../faults/interruptions.js';
import { KwokFaults } from '../faults/kwok-faults.js';
import { parseKwokSettings } from './settings.js';

/** Builds the KWOK provider for one operator process (see `kwokProviderPlugin`). */
export async function createKwokProvider(context: ProviderContext): Promise<ProviderInstance> {
  const settings = parseKwokSettings(context.settings);
  // The cluster name is a label value on every Node this provider creates (and `list` selects on it).
  if (context.clusterName === '' || !isLabelValue(context.clusterName)) {
    throw new Error(
      `--cluster-name "${context.clusterName}" cannot label KWOK nodes (${KwokNodeLabels.ManagedBy}): use at most 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit`,
    );
  }
  const logger = context.logger.child({ provider: 'kwok' });
  let provider: KwokCloudProvider | undefined;
  const interruptions = new KwokInterruptions({
    clock: context.clock,
    random: new SeededRandom(settings.interruptionSeed),
    spotInterruptionsPerHour: settings.spotInterruptionsPerHour,
    noticeMs: settings.interruptionNoticeMs,
    timers: context.timers,
    take: async (providerID) => provider?.terminate(providerID),
    onError: (err, providerID) =>
      logger.error({ err, 'provider-id': providerID }, 'could not take the interrupted KWOK instance'),
    instances: async () =>
      (await (provider?.list() ?? Promise.resolve([]))).map((c) => ({
        providerID: c.status?.providerID ?? '',
        capacityType: c.metadata.labels?.['karpenter.sh/capacity-type'] ?? '',
        instanceType: c.metadata.labels?.['node.kubernetes.io/instance-type'] ?? '',
        zone: c.metadata.labels?.['topology.kubernetes.io/zone'] ?? '',
      })),
  });
  const cloudProvider = new KwokCloudProvider({
    cluster: context.cluster,
    clock: context.clock,
    timers: context.timers,
    clusterName: context.clusterName,
    unavailableOfferings: context.unavailableOfferings,
    unavailableOfferingsTtlMs: settings.unavailableOfferingsTtlMs,
    faults: new KwokFaults(settings.insufficientCapacity),
    interruptions,
    logger,
  });
  provider = cloudProvider;
  return {
    cloudProvider,
    controllers: [new KwokNodeClassStatusController({ cluster: context.cluster, clock: context.clock })],
    nodeClassReadiness: readinessFromReadyCondition(context.cluster, [KWOKNodeClasses]),
    nodeClassTypes: [KWOKNodeClasses],
    close: async () => {
      interruptions.close();
      cloudProvider.close();
    },
  };
}
