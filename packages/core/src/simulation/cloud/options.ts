import type { Clock } from '../../clock/clock.js';
import type { Timers } from '../../clock/timers.js';
import type { InterruptionKind, NodeClassKindRef, RepairPolicy } from '../../cloudprovider/cloud-provider.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import type { UnavailableOfferingsCache } from '../../cloudprovider/unavailable-offerings.js';
import type { LatencySpec } from '../latency/latency.js';
import type { SeededRandom } from '../random/random.js';
import type { ErrorHandler } from '../settle/settle.js';
import type { InstanceLifecycleListener } from './instance.js';
import type { OfferingMatch } from './offering-match.js';

/** A window in which the cloud has no capacity for the matching offerings (launches fail). */
export interface CapacityOutage {
  /** Start, ms since the epoch (inclusive). */
  readonly from: number;
  /** End, ms since the epoch (exclusive). */
  readonly until: number;
  readonly match: OfferingMatch;
}

/** A burst of interruption notices at one instant, to running instances of the matching offerings. */
export interface InterruptionStorm {
  /** When, ms since the epoch. */
  readonly at: number;
  /** Defaults to spot instances only; set `capacityType` to widen or narrow. */
  readonly match?: OfferingMatch;
  /** How many instances: `count`, else `fraction` (0-1, rounded up) of the matching ones; default all. */
  readonly count?: number;
  readonly fraction?: number;
  /** Default SpotInterruption. */
  readonly kind?: InterruptionKind;
}

/** Everything a SimulatedCloudProvider is built from. */
export interface SimulatedCloudProviderOptions {
  readonly clock: Clock;
  readonly timers: Timers;
  /** Instance types with offerings and prices; the order is kept by getInstanceTypes. */
  readonly catalog: readonly InstanceType[];
  /**
   * What `wellKnownLabels()` reports: the catalog's own well-known labels (see
   * `catalogWellKnownLabels`); none beyond core's when absent.
   */
  readonly wellKnownLabels?: ReadonlySet<string>;
  /** Forked per concern (`ice`, `launch`, `spot`, `storm`, `termination`), so streams stay independent. */
  readonly random: SeededRandom;
  /** Provider name for metrics and logs. Default `simulated`. */
  readonly name?: string;
  /**
   * From `create` (which returns at once, the instance `pending`) until the instance is
   * `running` and handed to `registration`. Default 0.
   */
  readonly launchLatency?: LatencySpec;
  /** From the first `delete` until the instance is gone. Default 0 (gone at once). */
  readonly terminationLatency?: LatencySpec;
  /** Told about launches and terminations: a KubeletNodeRegistrar, or your own listener. */
  readonly registration?: InstanceLifecycleListener;
  /** Probability that one launch attempt on an offering fails, by `capacityType:type:zone` (`*` allowed). */
  readonly insufficientCapacityRate?: Readonly<Record<string, number>>;
  readonly outages?: readonly CapacityOutage[];
  /**
   * How many offerings one `create` tries, cheapest first, before it fails with
   * InsufficientCapacity. Default unlimited: an EC2 fleet falls back within the call. 1 is a
   * cloud that launches one VM size per call (Azure): the fallback is then the provisioner's
   * next pass, which sees the refused offering unavailable.
   */
  readonly offeringsPerCreate?: number;
  /** Poisson rate of interruptions per running spot instance per hour. Default 0. */
  readonly spotInterruptionRatePerHour?: number;
  readonly interruptionStorms?: readonly InterruptionStorm[];
  /** From notice to the cloud taking the instance. Default 2 minutes, as EC2 spot. */
  readonly interruptionNoticeMs?: number;
  /** Fed on ICE and spot interruptions; default a cache with `unavailableOfferingsTtlMs`. */
  readonly unavailableOfferings?: UnavailableOfferingsCache;
  /** How long a refused offering stays unavailable. Default 3 minutes, as Karpenter on AWS. */
  readonly unavailableOfferingsTtlMs?: number;
  /** Long-poll wait of `interruptions.receive`. Default 20 s (SQS); 0 answers at once. */
  readonly interruptionReceiveWaitMs?: number;
  /** Default `[{group: 'sim.nodewright.dev', kind: 'SimulatedNodeClass'}]`. */
  readonly nodeClasses?: readonly NodeClassKindRef[];
  readonly repairPolicies?: readonly RepairPolicy[];
  /** Image new instances boot; change it with `setImage` to drift older ones. Default `sim-image-1`. */
  readonly imageID?: string;
  /** Labels every instance with `topology.kubernetes.io/region` when set. */
  readonly region?: string;
  readonly onError?: ErrorHandler;
}
