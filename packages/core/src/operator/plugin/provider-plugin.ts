import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Converter } from '../../apis/conversion/converter.js';
import type { KindDefinition } from '../../apis/kind.js';
import type { CatalogProvider } from '../../catalog/catalog-provider.js';
import type { Clock } from '../../clock/clock.js';
import type { Timers } from '../../clock/timers.js';
import type { CloudProvider } from '../../cloudprovider/cloud-provider.js';
import type { UnavailableOfferingsCache } from '../../cloudprovider/unavailable-offerings.js';
import type { ClusterPort } from '../../kube/port.js';
import type { ResourceType } from '../../kube/resource-type.js';
import type { NodeClassReadinessCheck } from '../../nodepool/readiness/node-class-readiness.js';
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
 * The plug-in object: everything nodewright needs from a provider package, as one value. A
 * provider package's module default-exports it (`export default myProvider`), which is how
 * `nodewright controller --provider-module <package|path>` and the in-tree providers are found
 * alike; a provider's own binary passes it to `runController` from `@nodewright/cli`.
 *
 * Importing the module that holds it must stay cheap: the CLI imports every provider's plug-in
 * object to learn their kinds and catalogs (`validate`, `crds`, `schedule --catalog`), so a cloud
 * SDK is imported inside `create`, never at the top of the module. See docs/writing-a-provider.md.
 */
export interface ProviderPlugin {
  /** `aws`, `azure`, `gcp`, `kwok`: the value of `--provider`; unique among loaded providers. */
  readonly name: string;
  /** NodeClass kinds the provider contributes; their CRDs are installed or checked at start. */
  readonly kinds: readonly KindDefinition[];
  /**
   * Settings keys the provider accepts, with a one-line description each (for `--help`). Each
   * comes from `--set key=value` or, when not given there, from the environment variable
   * `settingVariable(key)` (`NODEWRIGHT_SETTING_<KEY>`).
   */
  readonly settings: Readonly<Record<string, string>>;
  /**
   * The settings that hold credentials (static keys for a mock, a token). The controller takes
   * them from the environment only and refuses them on the command line, where any process on
   * the node can read them. Default none.
   */
  readonly secretSettings?: readonly string[];
  /**
   * Checks the settings before anything starts (servers, the cluster connection, the cloud):
   * a required setting missing, a value malformed, an unknown key. Throws an Error whose
   * message names the setting and what is wrong; must not call the cloud or read the
   * environment. Settings it accepts must not be refused by `create` for their form. Default:
   * only the keys are checked, against `settings`.
   */
  checkSettings?(settings: Readonly<Record<string, string>>): void;
  /**
   * Instance-type catalogs the provider ships, for `schedule`/`disrupt`/`simulate --catalog NAME`;
   * each builds its catalog only when picked. Default none.
   */
  readonly catalogs?: readonly CatalogProvider[];
  /** Converters from older API versions of the provider's kinds, for `nodewright convert`. Default none. */
  readonly converters?: readonly Converter[];
  /** Builds the provider. May call the cloud (initial instance types, prices) before returning. */
  create(context: ProviderContext): Promise<ProviderInstance>;
}

/**
 * The environment variable that carries provider setting `key`: `NODEWRIGHT_SETTING_` and the
 * key in upper snake case (`accessKeyId` -> `NODEWRIGHT_SETTING_ACCESS_KEY_ID`), as the Helm
 * chart names them.
 */
export function settingVariable(key: string): string {
  return `NODEWRIGHT_SETTING_${key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
}
