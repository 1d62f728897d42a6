import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { KindDefinition } from '../../apis/kind.js';
import type { Clock } from '../../clock/clock.js';
import type { Timers } from '../../clock/timers.js';
import type { CloudProvider } from '../../cloudprovider/cloud-provider.js';
import type { UnavailableOfferingsCache } from '../../cloudprovider/unavailable-offerings.js';
import type { ClusterPort } from '../../kube/port.js';
import type { ResourceType } from '../../kube/resource-type.js';
import type { NodeClassReadinessCheck } from '../../lifecycle/node-class-readiness.js';
import type { Controller } from '../runtime/controller.js';
import type { EventRecorder } from '../runtime/event-recorder.js';

/**
 * What one operator process hands a provider when it builds it. Everything a provider needs
 * from its surroundings comes through here, so a provider never reads the environment or
 * module-level state.
 */
export interface ProviderContext {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
  /** The operator's Prometheus registry; provider metrics go here. */
  readonly registry: Registry;
  readonly events: EventRecorder;
  /** The cluster's name (tags, resource names); `--cluster-name`. */
  readonly clusterName: string;
  /**
   * Provider settings as strings, from `--set key=value` flags and the provider's documented
   * environment variables (read by the CLI, never by the provider). Unknown keys must be refused
   * with an error naming them.
   */
  readonly settings: Readonly<Record<string, string>>;
  /** Shared with core: offerings a launch found without capacity (capacityType:type:zone). */
  readonly unavailableOfferings: UnavailableOfferingsCache;
}

/** A provider built for one operator process. */
export interface ProviderInstance {
  readonly cloudProvider: CloudProvider;
  /**
   * The provider's own controllers (NodeClass status/readiness, instance-type and price refresh,
   * ...). They run on the same Manager as core's, only while this replica leads.
   */
  readonly controllers: readonly Controller[];
  /** How a NodePool's NodeClass readiness is read; default: its `Ready` condition. */
  readonly nodeClassReadiness?: NodeClassReadinessCheck;
  /** The NodeClass kinds to watch (readiness changes requeue NodePools). */
  readonly nodeClassTypes: readonly ResourceType[];
  /** Releases connections and timers; called once at shutdown. */
  close?(): Promise<void>;
}

/**
 * A provider package's entry point for composition roots (`nodewright controller`, the
 * conformance suite). The operator binds the built instance into its inversify container, so
 * core classes stay free of decorators.
 */
export interface ProviderPlugin {
  /** `aws`, `azure`, `gcp`, `kwok`: the value of `--provider`. */
  readonly name: string;
  /** NodeClass kinds the provider contributes; their CRDs are installed or checked at start. */
  readonly kinds: readonly KindDefinition[];
  /** Settings keys the provider accepts, with a one-line description each (for `--help`). */
  readonly settings: Readonly<Record<string, string>>;
  /** Builds the provider. May call the cloud (initial instance types, prices) before returning. */
  create(context: ProviderContext): Promise<ProviderInstance>;
}
