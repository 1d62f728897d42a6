import type { AddressInfo } from 'node:net';
import type { MockInstanceSource } from '@nodewright/conformance/harness';
import { type Clock, SystemClock, SystemTimers, type Timers } from '@nodewright/core/clock';
import type { Ec2Context } from './ec2/context.js';
import { InstanceLifecycle, type LifecycleTimings } from './ec2/lifecycle.js';
import { Ec2State } from './ec2/state.js';
import { AwsFaults } from './faults/faults.js';
import { IamState } from './iam/state.js';
import { Ec2MockInstanceSource } from './instances/mock-instances.js';
import { type PriceProduct, priceProducts } from './pricing/products.js';
import { type AwsSeed, buildSeed, MOCK_ACCOUNT_ID, type ParameterSeed, SEED_REGIONS } from './seed/index.js';
import { createAwsServer } from './server/http.js';
import {
  type EventBridgeEvent,
  type EventOrigin,
  instanceStateChange,
  rebalanceRecommendation,
  scheduledChange,
  spotInterruptionWarning,
} from './sqs/events.js';
import { type SqsQueue, SqsQueues } from './sqs/queues.js';

/** How to start an AWS mock; everything has a default. */
export interface AwsMockOptions {
  /** us-east-1 (default) or us-west-2. */
  readonly region?: string;
  /** Cluster name used in discovery tags (default `nodewright`). */
  readonly cluster?: string;
  /** Kubernetes minor of the seeded EKS AMIs (default 1.34). */
  readonly kubernetesVersion?: string;
  /**
   * IAM roles that exist at start (default: `KarpenterNodeRole-<cluster>` and the examples'
   * `KarpenterNodeRole-my-cluster`).
   */
  readonly roles?: readonly string[];
  /** Name of the interruption queue created at start (default `<cluster>-interruption`). */
  readonly interruptionQueueName?: string;
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly clock?: Clock;
  readonly timers?: Timers;
  readonly timings?: Partial<LifecycleTimings>;
  /**
   * Put an "EC2 Instance State-change Notification" on the interruption queue whenever an
   * instance goes stopping, stopped, shutting-down or terminated, as the EventBridge rule
   * Karpenter's set-up installs does (default false, so tests see only the events they push).
   */
  readonly stateChangeEvents?: boolean;
}

/** Builders for the EventBridge events of the interruption queue, stamped with the mock's region and clock. */
export interface AwsEventBuilders {
  spotInterruption(instanceId: string): EventBridgeEvent;
  rebalanceRecommendation(instanceId: string): EventBridgeEvent;
  stateChange(
    instanceId: string,
    state: 'pending' | 'running' | 'stopping' | 'stopped' | 'shutting-down' | 'terminated',
  ): EventBridgeEvent;
  scheduledChange(
    instanceIds: readonly string[],
    window: { startTime: number; endTime: number },
  ): EventBridgeEvent;
}

/** A running AWS mock: EC2, Pricing, SQS, IAM and SSM on one endpoint, with handles to state and faults. */
export interface AwsMock {
  /** `http://host:port`, for the SDK clients' `endpoint`. */
  readonly endpoint: string;
  readonly region: string;
  readonly accountId: string;
  /** What it started with. */
  readonly seed: AwsSeed;
  /** SDK client settings: `new EC2Client(mock.clientConfig)`. */
  readonly clientConfig: {
    readonly endpoint: string;
    readonly region: string;
    readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  };
  readonly ec2: Ec2State;
  readonly lifecycle: InstanceLifecycle;
  readonly pricing: { readonly products: readonly PriceProduct[] };
  readonly sqs: SqsQueues;
  /** Roles and instance profiles; tests add or remove roles here. */
  readonly iam: IamState;
  /** The public SSM parameters naming the seeded EKS AMIs, by name; tests may add or change some. */
  readonly ssmParameters: Map<string, ParameterSeed>;
  readonly faults: AwsFaults;
  readonly interruptionQueue: SqsQueue;
  readonly events: AwsEventBuilders;
  /** Puts an event on the interruption queue; returns the SQS message id. */
  pushInterruption(event: EventBridgeEvent): string;
  /**
   * Reclaims a spot instance as EC2 does: the interruption warning now, termination after
   * `noticeMs` (EC2: two minutes) on the mock's timers.
   */
  reclaimSpot(instanceId: string, noticeMs?: number): void;
  /** The instances as the kubelet harness sees them. */
  readonly instances: MockInstanceSource;
  /** Stops the server, ends long polls and pending transitions. */
  close(): Promise<void>;
}

/**
 * Starts EC2 and IAM (Query), Pricing and SSM (JSON 1.1) and SQS (JSON 1.0) mocks on one HTTP
 * endpoint that the real AWS SDK clients talk to when given its `endpoint`, a region and static
 * credentials.
 */
export async function startAwsMock(options: AwsMockOptions = {}): Promise<AwsMock> {
  const clock = options.clock ?? new SystemClock();
  const timers = options.timers ?? new SystemTimers();
  const accountId = MOCK_ACCOUNT_ID;
  const seed = buildSeed({
    now: clock.now(),
    ...(options.region !== undefined ? { region: options.region } : {}),
    ...(options.cluster !== undefined ? { cluster: options.cluster } : {}),
    ...(options.kubernetesVersion !== undefined ? { kubernetesVersion: options.kubernetesVersion } : {}),
  });
  const region = seed.region.name;
  const faults = new AwsFaults({ clock });
  const ec2 = new Ec2State(seed);
  const lifecycle = new InstanceLifecycle({
    state: ec2,
    clock,
    timers,
    ...(options.timings ? { timings: options.timings } : {}),
  });
  let endpoint = '';
  const sqs = new SqsQueues({ clock, timers, accountId, region, baseUrl: () => endpoint });
  const closing = new AbortController();
  const products = priceProducts(seed.instanceTypes, Object.values(SEED_REGIONS));
  const iam = new IamState({
    accountId,
    roles: options.roles ?? [
      ...new Set([`KarpenterNodeRole-${seed.cluster}`, 'KarpenterNodeRole-my-cluster']),
    ],
    now: clock.now(),
  });
  const ec2Context: Ec2Context = {
    state: ec2,
    lifecycle,
    faults,
    clock,
    accountId,
    instanceProfileExists: (name) => iam.instanceProfiles.has(name),
  };
  const ssmParameters = new Map(seed.parameters.map((p) => [p.name, p]));
  const server = createAwsServer({
    ec2: ec2Context,
    pricing: { products, publicationDate: '2026-11-01T00:00:00Z' },
    sqs: { queues: sqs, clock, signal: closing.signal },
    iam: { state: iam, clock },
    ssm: { parameters: ssmParameters, region },
    faults,
    timers,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  endpoint = `http://${address.address}:${address.port}`;
  const interruptionQueue = sqs.create(options.interruptionQueueName ?? `${seed.cluster}-interruption`, {
    MessageRetentionPeriod: '300',
  });
  const origin = (): EventOrigin => ({ region, account: accountId, time: clock.now() });
  const push = (event: EventBridgeEvent) => sqs.send(interruptionQueue, JSON.stringify(event)).id;
  if (options.stateChangeEvents) {
    lifecycle.onChange((instance) => {
      if (instance.state !== 'pending' && instance.state !== 'running') {
        push(instanceStateChange(origin(), instance.id, instance.state));
      }
    });
  }
  return {
    endpoint,
    region,
    accountId,
    seed,
    clientConfig: {
      endpoint,
      region,
      credentials: { accessKeyId: 'AKIAMOCK', secretAccessKey: 'mock-secret' },
    },
    ec2,
    lifecycle,
    pricing: { products },
    sqs,
    iam,
    ssmParameters,
    faults,
    interruptionQueue,
    events: {
      spotInterruption: (id) => spotInterruptionWarning(origin(), id),
      rebalanceRecommendation: (id) => rebalanceRecommendation(origin(), id),
      stateChange: (id, state) => instanceStateChange(origin(), id, state),
      scheduledChange: (ids, window) => scheduledChange(origin(), ids, window),
    },
    pushInterruption: push,
    reclaimSpot: (instanceId, noticeMs = 120_000) => {
      const instance = ec2.instances.get(instanceId);
      if (instance?.lifecycle !== 'spot') throw new Error(`aws mock: ${instanceId} is not a spot instance`);
      push(spotInterruptionWarning(origin(), instanceId));
      timers.after(noticeMs, () => lifecycle.terminate(instanceId, 'Service initiated'));
    },
    instances: new Ec2MockInstanceSource({ state: ec2, onChange: (l) => lifecycle.onChange(l) }),
    close: async () => {
      closing.abort();
      lifecycle.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
