import type { NodeClaim, NodePool } from '@nodewright/core/apis';
import type { CloudProvider, UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';

/** One offering, as the unavailable-offerings cache keys it. */
export interface OfferingRef {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: string;
}

/**
 * What a provider brings to the provider-contract suite: a factory for a fresh provider wired to
 * its mock cloud, and the switches the suite flips on that mock. A provider author implements
 * this once (see conformance/README.md) and calls `describeProviderContract(harness)`.
 */
export interface ProviderContractHarness {
  /** `aws`, `kwok`, ...: names the describe block. */
  readonly name: string;
  /** A new provider on a new (empty) mock cloud; called before each test. */
  setup(): Promise<ProviderContractFixture>;
}

export interface ProviderContractFixture {
  readonly provider: CloudProvider;
  /** The cache the provider marks insufficient-capacity offerings in. */
  readonly unavailableOfferings: UnavailableOfferingsCache;
  /** A NodePool whose nodeClassRef names a Ready NodeClass this fixture created. */
  readonly nodePool: NodePool;
  readonly faults: ProviderFaults;
  /** How many calls the mock cloud has answered (including faulted ones), for retry checks. */
  apiCalls(): number;
  /**
   * The waits (ms) the provider's backoff chose before each retry since setup, oldest first, read
   * where the provider waits: its injected timers, or its SDK's retry strategy. Decided delays,
   * not measured ones, so the backoff check involves no wall time. A provider whose backoff is
   * jittered makes the draw deterministic while a throttle or server-error fault is armed (the
   * AWS harness pins the SDK's jitter), so consecutive waits of one call grow on every run.
   */
  retryDelays(): readonly number[];
  /** Ends the fixture: stops servers, removes what it created. */
  teardown(): Promise<void>;
}

/** Faults and changes the suite applies to the mock cloud behind one fixture. */
export interface ProviderFaults {
  /** From now on, launches of this offering fail for lack of capacity. */
  insufficientCapacity(offering: OfferingRef): void;
  /** The next `count` cloud API calls are throttled (the cloud's own throttling error). */
  throttle(count: number): void;
  /** The next `count` cloud API calls fail with a server error (5xx). */
  serverErrors(count: number): void;
  /** Makes the fixture's NodeClass not Ready (as its status would say). */
  nodeClassNotReady(): Promise<void>;
  /** Changes the NodeClass or the cloud so the instance behind `nodeClaim` is drifted. */
  drift(nodeClaim: NodeClaim): Promise<void>;
  /**
   * Starts an instance that carries this cluster's ownership tags but has no NodeClaim (a
   * controller that crashed mid-launch); returns its providerID.
   */
  launchOrphan(): Promise<string>;
}
