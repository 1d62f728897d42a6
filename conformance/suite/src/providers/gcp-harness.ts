import { randomBytes } from 'node:crypto';
import * as gcp from '@nodewright/conformance/mocks/gcp';
import { CapacityTypes, Labels, type NodePool } from '@nodewright/core/apis';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import { UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import { type ClusterPort, isNotFound, type KubeObject, MemoryCluster } from '@nodewright/core/kube';
import {
  type Controller,
  createLogger,
  type ProviderContext,
  RecordingEventRecorder,
} from '@nodewright/core/operator';
import { aNodePool, ControllerEnv, reconcileContext } from '@nodewright/core/testing';
import {
  createGcpProvider,
  GCENodeClasses,
  type GCENodeClassInput,
  gceSdk,
  parseGcpSettings,
} from '@nodewright/gcp';
import { ContractClaims } from '../provider-contract/contract-claims.js';
import type { ProviderContractFixture, ProviderContractHarness } from '../provider-contract/harness.js';
import { RecordingTimers } from '../provider-contract/recording-timers.js';

type Logger = ProviderContext['logger'];

export interface GcpHarnessOptions {
  /** Names the describe block. */
  readonly name: string;
  readonly logger?: Logger;
  /**
   * The cluster one fixture runs on, serving GCENodeClass: a fresh MemoryCluster per fixture by
   * default, or a shared real cluster, on which each fixture uses its own names and deletes its
   * GCENodeClass at teardown.
   */
  readonly cluster?: () => Promise<ClusterPort>;
  /** Provider settings beside the mock's (e.g. `launchMode`). */
  readonly settings?: Readonly<Record<string, string>>;
  /** The mock's operation and VM state timings (see the mock's GceTimings). */
  readonly mockTimings?: gcp.GcpMockOptions['timings'];
}

/** The GCENodeClass every fixture launches from: COS through the alias, the mock's subnetwork. */
export function mockGCENodeClass(name: string): GCENodeClassInput {
  return {
    apiVersion: 'karpenter.k8s.gcp/v1alpha1',
    kind: 'GCENodeClass',
    metadata: { name },
    spec: {
      imageSelectorTerms: [{ alias: 'cos@latest' }],
      networkConfig: { subnetwork: 'regions/us-central1/subnetworks/nodes' },
    },
  };
}

/** Settings as `nodewright controller --provider gcp --set ...` would pass them for the mock. */
export function mockGcpSettings(mock: gcp.GcpMock): Record<string, string> {
  return { project: mock.project, region: 'us-central1', endpoint: mock.baseUrl, anonymous: 'true' };
}

async function reconcileAll(controllers: readonly Controller[], name: string, logger: Logger): Promise<void> {
  const context = reconcileContext({ logger });
  for (const controller of controllers) await controller.reconcile({ name }, context);
}

/** One GCP provider on a fresh mock, its NodeClass Ready and its first reads done. */
export interface GcpWorld {
  readonly mock: gcp.GcpMock;
  readonly instance: ReturnType<typeof createGcpProvider>;
  readonly cluster: ClusterPort;
  readonly timers: RecordingTimers;
  readonly unavailableOfferings: UnavailableOfferingsCache;
  readonly nodePool: NodePool;
  readonly nodeClassName: string;
  readonly suffix: string;
  /** Runs the provider's controllers (the GCENodeClass status) for the fixture's NodeClass. */
  resolveStatus(): Promise<void>;
}

/**
 * Starts the mock, composes the provider as `gcpProviderPlugin` does over the real SDK clients,
 * creates a GCENodeClass (made Ready by `gcenodeclass.status`) and a NodePool for it.
 */
export async function startGcpWorld(options: Omit<GcpHarnessOptions, 'name'> = {}): Promise<GcpWorld> {
  const clock = new SystemClock();
  const timers = new RecordingTimers(new SystemTimers());
  const logger = options.logger ?? createLogger({ level: 'silent' });
  const suffix = randomBytes(4).toString('hex');
  const clusterName = `contract-${suffix}`;
  const mock = await gcp.startGcpMock({
    project: 'contract-project',
    ...(options.mockTimings === undefined ? {} : { timings: options.mockTimings }),
  });
  const cluster: ClusterPort =
    (await options.cluster?.()) ?? new MemoryCluster({ clock, kinds: [GCENodeClasses] });
  const settings = parseGcpSettings({ ...mockGcpSettings(mock), ...options.settings });
  const unavailableOfferings = new UnavailableOfferingsCache(clock);
  const instance = createGcpProvider(
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
    await gceSdk(settings),
  );
  const nodeClassName = `contract-${suffix}`;
  await cluster.create(GCENodeClasses, mockGCENodeClass(nodeClassName) as KubeObject as never);
  const resolveStatus = () => reconcileAll(instance.controllers, nodeClassName, logger);
  await resolveStatus();
  const nodePool: NodePool = aNodePool({
    metadata: { name: `contract-${suffix}` },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.gcp', kind: 'GCENodeClass', name: nodeClassName },
          requirements: [
            {
              key: Labels.CapacityType,
              operator: 'In',
              values: [CapacityTypes.OnDemand, CapacityTypes.Spot],
            },
            { key: Labels.Arch, operator: 'In', values: ['amd64'] },
            { key: Labels.OS, operator: 'In', values: ['linux'] },
          ],
        },
      },
    },
  });
  // The first machine type and billing catalog reads finish before the contract starts.
  await instance.cloudProvider.getInstanceTypes(nodePool);
  return {
    mock,
    instance,
    cluster,
    timers,
    unavailableOfferings,
    nodePool,
    nodeClassName,
    suffix,
    resolveStatus,
  };
}

/**
 * The GCP provider's provider-contract harness. Each fixture starts its own Compute Engine +
 * billing catalog mock, builds the real @google-cloud/compute clients against it and composes
 * the provider as `gcpProviderPlugin` does (`createGcpProvider`), on a MemoryCluster serving
 * GCENodeClass or the real cluster given as `cluster`. The provider waits on RecordingTimers, so
 * `retryDelays` is what its backoff decided. The GCENodeClass is made Ready by the real
 * `gcenodeclass.status` controller. Faults are the mock's: a stocked-out pool, 403
 * rateLimitExceeded and 500 backendError on the next calls; readiness and drift are cloud-side
 * changes the status controller then resolves (the COS image families withdrawn; a newer COS
 * image released); an orphan is an instance inserted with the cluster's labels for a NodeClaim
 * that never reached the cluster.
 */
export function gcpHarness(options: GcpHarnessOptions): ProviderContractHarness {
  return {
    name: options.name,
    async setup(): Promise<ProviderContractFixture> {
      const world = await startGcpWorld(options);
      const { mock, instance, cluster, timers, nodePool, nodeClassName } = world;
      const orphans = new ContractClaims(nodePool);
      return {
        provider: instance.cloudProvider,
        unavailableOfferings: world.unavailableOfferings,
        nodePool,
        apiCalls: () => mock.faults.totalCalls(),
        retryDelays: () => timers.delays(),
        faults: {
          insufficientCapacity: ({ instanceType, zone, capacityType }) =>
            mock.faults.stockout({
              machineType: instanceType,
              zone,
              provisioningModel: capacityType === 'spot' ? 'SPOT' : 'STANDARD',
            }),
          throttle: (count) => mock.faults.failNext(count, 'rateLimit'),
          serverErrors: (count) => mock.faults.failNext(count, 'backendError'),
          async nodeClassNotReady() {
            for (const key of [...mock.compute.images.keys()]) {
              if (key.startsWith('cos-cloud/')) mock.compute.images.delete(key);
            }
            await world.resolveStatus();
          },
          async drift() {
            mock.compute.addImage('cos-cloud', {
              name: `cos-stable-121-18867-99-${world.suffix}`,
              family: 'cos-stable',
              architecture: 'X86_64',
            });
            await world.resolveStatus();
          },
          async launchOrphan() {
            const created = await instance.cloudProvider.create(orphans.claim());
            const providerID = created.status?.providerID;
            if (providerID === undefined)
              throw new Error('gcp harness: the orphan launch returned no providerID');
            return providerID;
          },
        },
        async teardown() {
          await instance.close?.();
          await mock.close();
          try {
            await cluster.delete(GCENodeClasses, { name: nodeClassName });
          } catch (err) {
            if (!isNotFound(err)) throw err;
          }
        },
      };
    },
  };
}
