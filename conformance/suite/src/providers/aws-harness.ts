import { randomBytes } from 'node:crypto';
import {
  awsClients,
  createAwsProvider,
  EC2NodeClasses,
  type EC2NodeClassInput,
  parseAwsSettings,
} from '@nodewright/aws';
import { type AwsMock, startAwsMock } from '@nodewright/conformance/mocks/aws';
import type { NodePool } from '@nodewright/core/apis';
import { type Clock, SystemClock, SystemTimers } from '@nodewright/core/clock';
import { UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import {
  type ClusterPort,
  isNotFound,
  type KubeObject,
  MemoryCluster,
  NodePools,
} from '@nodewright/core/kube';
import {
  type Controller,
  createLogger,
  type ProviderContext,
  type ProviderInstance,
  RecordingEventRecorder,
} from '@nodewright/core/operator';
import { ControllerEnv, reconcileContext } from '@nodewright/core/testing';
import { ContractClaims, contractNodePool } from '../provider-contract/contract-claims.js';
import type { ProviderContractFixture, ProviderContractHarness } from '../provider-contract/harness.js';
import { pinJitter, recordRetryDelays } from './aws-retry-recorder.js';

type Logger = ProviderContext['logger'];

export interface AwsHarnessOptions {
  /** Names the describe block: `aws (mock, memory cluster)`. */
  readonly name: string;
  /** Region the mock is seeded for (default us-east-1). */
  readonly region?: string;
  /** A logger for the provider (default silent). */
  readonly logger?: Logger;
  /**
   * The cluster one fixture runs on, serving EC2NodeClass (its CRD applied on a real one): by
   * default a fresh MemoryCluster per fixture; or a shared real cluster, on which each fixture
   * works under its own cluster and EC2NodeClass names and deletes its EC2NodeClass at teardown.
   */
  readonly cluster?: () => Promise<ClusterPort>;
}

/**
 * The jitter draw pinned while a retry fault is armed: the SDK's standard strategy then waits
 * half its ceiling (throttling: 500 ms, then 1 s; server errors: 25 ms, then 50 ms).
 */
const PinnedJitter = 0.5;

/** The fields of an EC2NodeClass the fixture creates, discovering the mock's seeded VPC by tag. */
export function mockEC2NodeClass(name: string, discovery: string): EC2NodeClassInput {
  return {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name },
    spec: {
      role: `KarpenterNodeRole-${discovery}`,
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': discovery } }],
      securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': discovery } }],
    },
  };
}

/** Settings as `nodewright controller --provider aws --set ...` would pass them for a mock. */
export function mockAwsSettings(
  mock: AwsMock,
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    region: mock.region,
    endpoint: mock.endpoint,
    accessKeyId: mock.clientConfig.credentials.accessKeyId,
    secretAccessKey: mock.clientConfig.credentials.secretAccessKey,
    kubernetesVersion: mock.seed.kubernetesVersion,
    clusterEndpoint: 'https://api.contract.nodewright.test',
    caBundle: Buffer.from('contract CA').toString('base64'),
    ...extra,
  };
}

/** How to compose the real AWS provider against a wire mock: see `awsProviderOnMock`. */
export interface AwsProviderOnMockOptions {
  readonly mock: AwsMock;
  /** Serves EC2NodeClass (its CRD applied on a real cluster). */
  readonly cluster: ClusterPort;
  readonly clusterName: string;
  readonly clock: Clock;
  readonly timers: SystemTimers;
  readonly logger: Logger;
  /** The EC2NodeClass created and made Ready (default `default`). */
  readonly nodeClassName?: string;
  /** Settings besides the mock's endpoint and credentials (e.g. `interruptionQueue`). */
  readonly settings?: Readonly<Record<string, string>>;
  /** SDK clients to use instead of fresh ones, e.g. with a retry recorder attached. */
  readonly clients?: Awaited<ReturnType<typeof awsClients>>;
  /** Also creates the contract NodePool of this name on the cluster, over the EC2NodeClass. */
  readonly nodePoolName?: string;
}

/** The composed provider and the parts a test reads back. */
export interface AwsProviderOnMock {
  readonly instance: ProviderInstance;
  readonly registry: ProviderContext['registry'];
  readonly events: RecordingEventRecorder;
  readonly unavailableOfferings: UnavailableOfferingsCache;
  /** The NodePool created when `nodePoolName` was given, as stored. */
  readonly pool: NodePool | undefined;
}

/**
 * Composes the AWS provider as `awsProviderPlugin` does, on real SDK clients against `mock`,
 * then creates the EC2NodeClass the mock's seeded VPC is discovered by and runs the provider's
 * controllers once, so it is Ready (and, if named, a NodePool over it): what every AWS fault
 * test starts from.
 */
export async function awsProviderOnMock(options: AwsProviderOnMockOptions): Promise<AwsProviderOnMock> {
  const { mock, cluster, clusterName, clock, timers, logger } = options;
  const settings = parseAwsSettings(mockAwsSettings(mock, options.settings));
  const unavailableOfferings = new UnavailableOfferingsCache(clock);
  // The AWS provider registers no metrics of its own; a test registry stands in.
  const registry = new ControllerEnv().registry;
  const events = new RecordingEventRecorder();
  const instance = createAwsProvider(
    { cluster, clock, timers, logger, registry, events, clusterName, settings: {}, unavailableOfferings },
    settings,
    options.clients ?? (await awsClients(settings)),
  );
  const nodeClassName = options.nodeClassName ?? 'default';
  await cluster.create(EC2NodeClasses, mockEC2NodeClass(nodeClassName, clusterName) as KubeObject as never);
  await reconcileAll(instance.controllers, { name: nodeClassName }, logger);
  const pool =
    options.nodePoolName === undefined
      ? undefined
      : await cluster.create(
          NodePools,
          contractNodePool(options.nodePoolName, {
            group: 'karpenter.k8s.aws',
            kind: 'EC2NodeClass',
            name: nodeClassName,
          }),
        );
  return { instance, registry, events, unavailableOfferings, pool };
}

/** Runs each provider controller's reconcile for one key once, as the Manager would on an add. */
async function reconcileAll(
  controllers: readonly Controller[],
  key: { name: string },
  logger: Logger,
): Promise<void> {
  const context = reconcileContext({ logger });
  for (const controller of controllers) await controller.reconcile(key, context);
}

/** How long a fixture waits for the provider's first Pricing and spot price refresh. */
const PriceRefreshTimeoutMs = 15_000;

/**
 * Waits until every offering of the pool has a price: the provider starts with its static table
 * and replaces it once GetProducts and DescribeSpotPriceHistory answered, asynchronously. The
 * contract is about a provider that has finished starting. Gives up silently at the timeout, so
 * the well-formedness check names the unpriced offerings.
 */
async function firstPriceRefresh(instance: ProviderInstance, nodePool: NodePool): Promise<void> {
  const deadline = Date.now() + PriceRefreshTimeoutMs;
  while (Date.now() < deadline) {
    const types = await instance.cloudProvider.getInstanceTypes(nodePool);
    if (types.every((t) => t.offerings.every((o) => Number.isFinite(o.price)))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Deletes the fixture's EC2NodeClass, first taking off the termination finalizer the status
 * controller added (no `ec2nodeclass.termination` runs here to take it off; the mock and its
 * instance profiles are gone with the fixture anyway).
 */
async function removeNodeClass(cluster: ClusterPort, name: string): Promise<void> {
  try {
    await cluster.patch(EC2NodeClasses, { name }, { metadata: { finalizers: null } });
    await cluster.delete(EC2NodeClasses, { name });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/**
 * The AWS provider's provider-contract harness. Each fixture starts its own AWS mock
 * (`startAwsMock`), builds the real SDK clients against it (`awsClients` with the mock's
 * endpoint and static credentials) and composes the provider as `awsProviderPlugin` does
 * (`createAwsProvider`), on a MemoryCluster serving EC2NodeClass or the real cluster given as
 * `cluster`. The EC2 client reports the waits its SDK retry strategy chooses (`retryDelays`);
 * while a throttle or server-error fault is armed the strategy's jitter draw is pinned, so
 * those waits are deterministic. The fixture's EC2NodeClass is
 * made Ready by the real `ec2nodeclass.status` controller. Faults are the mock's: capacity per
 * pool, RequestLimitExceeded and InternalError on the next EC2 calls; readiness and drift are
 * cloud-side changes the status controller then resolves (the discovery tag taken off the
 * subnets; the VPC's default security group tagged for discovery); an orphan is an instance
 * CreateFleet launched with the cluster's tags for a NodeClaim that never reached the cluster.
 */
export function awsHarness(options: AwsHarnessOptions): ProviderContractHarness {
  return {
    name: options.name,
    async setup(): Promise<ProviderContractFixture> {
      const clock: Clock = new SystemClock();
      const timers = new SystemTimers();
      const logger = options.logger ?? createLogger({ level: 'silent' });
      const suffix = randomBytes(4).toString('hex');
      const clusterName = `contract-${suffix}`;
      const mock = await startAwsMock({
        cluster: clusterName,
        ...(options.region !== undefined ? { region: options.region } : {}),
        // Instances are running at once: the contract checks the API, not boot times.
        timings: { startMs: 0 },
      });
      const cluster: ClusterPort =
        (await options.cluster?.()) ?? new MemoryCluster({ clock, kinds: [EC2NodeClasses] });
      const clients = await awsClients(parseAwsSettings(mockAwsSettings(mock)));
      // EC2 is the service the faults throttle and fail; its SDK client's own strategy decides the waits.
      const retryDelays: number[] = [];
      recordRetryDelays(clients.ec2, (ms) => retryDelays.push(ms));
      let unpinJitter: (() => void) | undefined;
      const pinJitterOnce = () => {
        unpinJitter ??= pinJitter(PinnedJitter);
      };
      const nodeClassName = `contract-${suffix}`;
      const { instance, unavailableOfferings } = await awsProviderOnMock({
        mock,
        cluster,
        clusterName,
        clock,
        timers,
        logger,
        nodeClassName,
        clients,
      });
      const resolveStatus = () => reconcileAll(instance.controllers, { name: nodeClassName }, logger);
      const nodePool = contractNodePool(`contract-${suffix}`, {
        group: 'karpenter.k8s.aws',
        kind: 'EC2NodeClass',
        name: nodeClassName,
      });
      await firstPriceRefresh(instance, nodePool);
      const apiCalls = () => Object.values(mock.faults.callCounts()).reduce((a, b) => a + b, 0);
      const orphans = new ContractClaims(nodePool);
      return {
        provider: instance.cloudProvider,
        unavailableOfferings,
        nodePool,
        apiCalls,
        retryDelays: () => retryDelays,
        faults: {
          insufficientCapacity: ({ instanceType, zone, capacityType }) =>
            mock.faults.insufficientCapacity({
              instanceType,
              zone,
              capacityType: capacityType === 'spot' ? 'spot' : 'on-demand',
            }),
          throttle: (count) => {
            pinJitterOnce();
            mock.faults.throttleNext({ service: 'ec2' }, count);
          },
          serverErrors: (count) => {
            pinJitterOnce();
            mock.faults.failNext({ service: 'ec2' }, count, 'internal');
          },
          async nodeClassNotReady() {
            for (const [id, subnet] of mock.ec2.subnets) {
              const { 'karpenter.sh/discovery': _, ...tags } = subnet.tags;
              mock.ec2.subnets.set(id, { ...subnet, tags });
            }
            await resolveStatus();
          },
          async drift() {
            for (const [id, group] of mock.ec2.securityGroups) {
              if (group.tags['karpenter.sh/discovery'] === undefined) {
                mock.ec2.securityGroups.set(id, {
                  ...group,
                  tags: { ...group.tags, 'karpenter.sh/discovery': clusterName },
                });
              }
            }
            await resolveStatus();
          },
          async launchOrphan() {
            const created = await instance.cloudProvider.create(orphans.claim());
            const providerID = created.status?.providerID;
            if (providerID === undefined)
              throw new Error('aws harness: the orphan launch returned no providerID');
            return providerID;
          },
        },
        async teardown() {
          unpinJitter?.();
          await instance.close?.();
          await mock.close();
          await removeNodeClass(cluster, nodeClassName);
        },
      };
    },
  };
}
