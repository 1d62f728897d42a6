import { randomBytes } from 'node:crypto';
import {
  AKSNodeClasses,
  type AKSNodeClassInput,
  type AzureProviderInstance,
  armZone,
  createAzureProvider,
  parseAzureSettings,
} from '@nodewright/azure';
import { type AzureMock, startAzureMock } from '@nodewright/conformance/mocks';
import { CapacityTypes, type NodePool } from '@nodewright/core/apis';
import { type Clock, SystemClock, SystemTimers } from '@nodewright/core/clock';
import { UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import {
  type ClusterPort,
  isNotFound,
  type KubeObject,
  MemoryCluster,
  type MergePatch,
} from '@nodewright/core/kube';
import {
  type Controller,
  createLogger,
  type ProviderContext,
  RecordingEventRecorder,
} from '@nodewright/core/operator';
import { ControllerEnv, reconcileContext } from '@nodewright/core/testing';
import { ContractClaims, contractNodePool } from '../provider-contract/contract-claims.js';
import type { ProviderContractFixture, ProviderContractHarness } from '../provider-contract/harness.js';

type Logger = ProviderContext['logger'];

export interface AzureHarnessOptions {
  /** Names the describe block. */
  readonly name: string;
  readonly logger?: Logger;
  /**
   * The cluster one fixture runs on, serving AKSNodeClass: a fresh MemoryCluster per fixture by
   * default; or a shared real cluster, on which each fixture uses its own names and deletes its
   * AKSNodeClass at teardown.
   */
  readonly cluster?: () => Promise<ClusterPort>;
}

/** The subnet the fixture's nodes join (the mock checks NICs name one, not that it exists). */
export const MockSubnetID =
  '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/nodes';

/** Settings as `nodewright controller --provider azure --set ...` would pass them for a mock. */
export function mockAzureSettings(
  mock: AzureMock,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    subscriptionId: mock.subscriptionId,
    location: mock.location,
    nodeResourceGroup: mock.resourceGroup,
    kubernetesVersion: '1.33.2',
    subnetID: MockSubnetID,
    armEndpoint: mock.endpoint,
    pricesEndpoint: mock.endpoint,
    staticAccessToken: 'mock-token',
    clusterEndpoint: 'https://api.contract.nodewright.test',
    pollInterval: '5ms',
    retryDelay: '20ms',
    ...extra,
  };
}

async function reconcileAll(
  controllers: readonly Controller[],
  key: { name: string },
  logger: Logger,
): Promise<void> {
  const context = reconcileContext({ logger });
  for (const controller of controllers) await controller.reconcile(key, context);
}

async function removeNodeClass(cluster: ClusterPort, name: string): Promise<void> {
  try {
    await cluster.delete(AKSNodeClasses, { name });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/** A running Azure provider on its own ARM mock, with a Ready AKSNodeClass and a NodePool of it. */
export interface AzureWorld {
  readonly mock: AzureMock;
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  readonly instance: AzureProviderInstance;
  readonly unavailableOfferings: UnavailableOfferingsCache;
  /** Waits the provider's retry policy chose, oldest first. */
  readonly retryDelays: number[];
  readonly nodeClassName: string;
  readonly nodePool: NodePool;
  /** Runs the provider's controllers (aksnodeclass.status) for the NodeClass once. */
  resolveStatus(): Promise<void>;
}

/**
 * Starts an ARM mock (TLS with its own CA), builds the real SDK clients against it and
 * composes the provider as `azureProviderPlugin` does, waits for its first reads, and creates
 * an AKSNodeClass made Ready by the real status controller. `extraSettings` are `--set` values.
 */
export async function startAzureWorld(
  options: Omit<AzureHarnessOptions, 'name'> & { extraSettings?: Readonly<Record<string, string>> } = {},
): Promise<AzureWorld> {
  const clock: Clock = new SystemClock();
  const timers = new SystemTimers();
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const suffix = randomBytes(4).toString('hex');
  const clusterName = `contract-${suffix}`;
  const mock = await startAzureMock({ pollsPerOperation: 1 });
  const cluster: ClusterPort =
    (await options.cluster?.()) ?? new MemoryCluster({ clock, kinds: [AKSNodeClasses] });
  const settings = parseAzureSettings(mockAzureSettings(mock, options.extraSettings));
  const retryDelays: number[] = [];
  // The SDK module is loaded here, as the plug-in loads it: only when the provider runs.
  const { armClients } = await import('@nodewright/azure/clients');
  const clients = armClients({
    subscriptionId: settings.subscriptionId,
    credential: mock.credential,
    endpoint: mock.endpoint,
    pricesEndpoint: mock.endpoint,
    agent: mock.agent,
    ...(settings.pollIntervalMs !== undefined ? { pollIntervalMs: settings.pollIntervalMs } : {}),
    ...(settings.retryDelayMs !== undefined ? { retryDelayMs: settings.retryDelayMs } : {}),
    onRetry: (ms) => retryDelays.push(ms),
  });
  const unavailableOfferings = new UnavailableOfferingsCache(clock);
  const instance = createAzureProvider(
    {
      cluster,
      clock,
      timers,
      logger,
      registry: new ControllerEnv().registry,
      events: new RecordingEventRecorder(),
      clusterName,
      settings: {},
      unavailableOfferings,
    },
    settings,
    clients,
  );
  // The contract is about a provider that has finished starting: its first reads are done.
  await instance.started;
  const nodeClassName = `contract-${suffix}`;
  const nodeClass: AKSNodeClassInput = {
    apiVersion: 'karpenter.azure.com/v1beta1',
    kind: 'AKSNodeClass',
    metadata: { name: nodeClassName },
    spec: { imageFamily: 'Ubuntu2204', tags: { team: 'contract' } },
  };
  await cluster.create(AKSNodeClasses, nodeClass as KubeObject as never);
  const resolveStatus = () => reconcileAll(instance.controllers, { name: nodeClassName }, logger);
  await resolveStatus();
  const nodePool = contractNodePool(`contract-${suffix}`, {
    group: 'karpenter.azure.com',
    kind: 'AKSNodeClass',
    name: nodeClassName,
  });
  return {
    mock,
    cluster,
    clock,
    instance,
    unavailableOfferings,
    retryDelays,
    nodeClassName,
    nodePool,
    resolveStatus,
  };
}

/**
 * The Azure provider's provider-contract harness. Each fixture starts its own ARM mock
 * (`startAzureMock`, TLS with its own CA), builds the real @azure/arm-compute and
 * @azure/arm-network clients against it (`armClients` with the mock's endpoint, CA-trusting
 * agent and token credential) and composes the provider as `azureProviderPlugin` does
 * (`createAzureProvider`). The AKSNodeClass is made Ready by the real `aksnodeclass.status`
 * controller. Faults are the mock's: allocation failures per size x zone x priority, 429 with
 * Retry-After and 500 on the next ARM calls; the waits are the ones the provider's retry policy
 * reports. Not-Ready and drift are NodeClass changes (its status, then its spec); an orphan is a
 * VM created with the cluster's tags for a NodeClaim that never reached the cluster.
 */
export function azureHarness(options: AzureHarnessOptions): ProviderContractHarness {
  return {
    name: options.name,
    async setup(): Promise<ProviderContractFixture> {
      const world = await startAzureWorld(options);
      const { mock, cluster, clock, instance, nodeClassName, nodePool, resolveStatus } = world;
      const orphans = new ContractClaims(nodePool);
      return {
        provider: instance.cloudProvider,
        unavailableOfferings: world.unavailableOfferings,
        nodePool,
        apiCalls: () => mock.faults.requests,
        retryDelays: () => world.retryDelays,
        faults: {
          insufficientCapacity: ({ instanceType, zone, capacityType }) => {
            const z = armZone(mock.location, zone);
            mock.faults.failAllocation(
              {
                size: instanceType,
                ...(z !== undefined ? { zone: z } : {}),
                priority: capacityType === CapacityTypes.Spot ? 'Spot' : 'Regular',
              },
              'ZonalAllocationFailed',
            );
          },
          throttle: (count) => mock.faults.throttleNext(count, 1),
          serverErrors: (count) => mock.faults.failNext(count, 500),
          async nodeClassNotReady() {
            await cluster.patchStatus(AKSNodeClasses, { name: nodeClassName }, {
              status: {
                conditions: [
                  {
                    type: 'Ready',
                    status: 'False',
                    reason: 'SubnetsNotReady',
                    message: 'the contract made it not Ready',
                    lastTransitionTime: new Date(clock.now()).toISOString(),
                  },
                ],
              },
            } as unknown as MergePatch);
          },
          async drift() {
            await cluster.patch(AKSNodeClasses, { name: nodeClassName }, { spec: { osDiskSizeGB: 256 } });
            await resolveStatus();
          },
          async launchOrphan() {
            const created = await instance.cloudProvider.create(orphans.claim());
            const providerID = created.status?.providerID;
            if (providerID === undefined)
              throw new Error('azure harness: the orphan launch returned no providerID');
            return providerID;
          },
        },
        async teardown() {
          await instance.close?.();
          await mock.close();
          await removeNodeClass(cluster, nodeClassName);
        },
      };
    },
  };
}
