import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import type { InstanceType } from './instance-type.js';
import type { OfferingKey } from './unavailable-offerings.js';

/** A NodeClass kind a provider resolves (`group` + `kind`, as in a nodeClassRef). */
export interface NodeClassKindRef {
  readonly group: string;
  readonly kind: string;
}

/** "Replace the node when this condition has held this long" (Karpenter's repair policy). */
export interface RepairPolicy {
  readonly conditionType: string;
  readonly conditionStatus: 'True' | 'False' | 'Unknown';
  readonly tolerationDurationMs: number;
}

/** Why a NodeClaim no longer matches what its NodeClass would launch now. */
export type DriftReason = string;

/** What an interruption notice announces; every kind ends with the node drained. */
export type InterruptionKind =
  | 'SpotInterruption'
  | 'ScheduledMaintenance'
  | 'RebalanceRecommendation'
  | 'InstanceStopping'
  | 'InstanceTerminated';

/** One notice from the cloud that an instance is about to go away (or should). */
export interface InterruptionNotice {
  /** Opaque handle the source uses to acknowledge it (e.g. an SQS receipt handle). */
  readonly id: string;
  readonly kind: InterruptionKind;
  /** The instance concerned, as the NodeClaim's `status.providerID` spells it. */
  readonly providerID: string;
  /** When the cloud takes the instance (ms since epoch), when it says. */
  readonly deadline?: number;
  /** For spot interruptions: the offering to mark unavailable. */
  readonly offering?: OfferingKey;
  readonly message: string;
}

/**
 * A pull-based stream of interruption notices. Core's interruption controller calls `receive`,
 * acts on each notice as soon as it is returned (cordon and drain ahead of the deadline;
 * rebalance only records an event) and then acknowledges it, so a notice is redelivered if the
 * controller dies before acting. Malformed messages are the source's to log and drop; `receive`
 * must not throw for them. `receive` may wait for notices (a long poll); the controller has no
 * timer of its own. It calls `receive` again at once after one that returned notices; after one
 * that returned nothing or threw, no sooner than the poll interval (2 s) after that one started,
 * so a long poll is followed at once and a source that answers at once is asked every 2 s.
 * Notices are handled concurrently, so `acknowledge` must be safe to call concurrently, and a
 * notice whose handling keeps failing is acknowledged after a few attempts.
 */
export interface InterruptionSource {
  receive(signal?: AbortSignal): Promise<InterruptionNotice[]>;
  acknowledge(notice: InterruptionNotice): Promise<void>;
}

/**
 * The only way core talks to a cloud. One interface for every cloud (see README.md for how AWS,
 * Azure and GCP map onto it); implementations throw the typed errors of `errors.ts`.
 */
export interface CloudProvider {
  /** Short provider name (`aws`, `azure`, `gcp`, `kwok`), used in metrics and logs. */
  readonly name: string;

  /**
   * Launches one instance for the NodeClaim, choosing among the instance types, zones and capacity
   * types its requirements allow — the cheapest available compatible offering unless the cloud's
   * own allocation strategy picks among the allowed ones. Returns the claim hydrated with
   * `status.providerID`, `status.capacity`/`allocatable`, `status.imageID` and labels for the
   * resolved instance type, zone and capacity type.
   *
   * Idempotent per NodeClaim name: a retry after a crash finds the instance already launched
   * rather than launching a second one.
   *
   * @throws InsufficientCapacityError when no allowed offering had capacity (the failing ones are
   *   already marked unavailable); NodeClassNotReadyError when the NodeClass is missing or not
   *   Ready; CreateError for a reason to show on the claim's Launched condition.
   */
  create(nodeClaim: NodeClaim): Promise<NodeClaim>;

  /**
   * Starts terminating the claim's instance. Returns normally while termination is under way and
   * throws NodeClaimNotFoundError once the instance is gone; core calls it until then, so it must
   * be safe to call repeatedly.
   */
  delete(nodeClaim: NodeClaim): Promise<void>;

  /** The NodeClaim view of one instance. @throws NodeClaimNotFoundError when there is none. */
  get(providerID: string): Promise<NodeClaim>;

  /** Every instance this provider launched for this cluster (for garbage collection). */
  list(): Promise<NodeClaim[]>;

  /**
   * Every instance type the NodePool's NodeClass could launch, including those with no available
   * offering (marked `available: false`), with allocatable after overhead. Offerings the
   * unavailable-offerings cache lists are reported unavailable.
   */
  getInstanceTypes(nodePool: NodePool): Promise<InstanceType[]>;

  /**
   * The label keys this provider's instance types define beyond core's WellKnownLabels (AWS:
   * `karpenter.k8s.aws/instance-family`, ...), as Karpenter's providers register theirs. A pod may
   * select on them without its NodePool naming them, and the solver reads them off the instance
   * types: a type that lacks one counts as `DoesNotExist` for it, so `In`/`Exists` selectors skip
   * it and `DoesNotExist`/`NotIn` ones match it. A fixed set: it must not change while running.
   */
  wellKnownLabels(): ReadonlySet<string>;

  /** A drift reason when the instance no longer matches its NodeClass, else undefined. */
  isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined>;

  /**
   * Node conditions after which the node is replaced regardless of disruption budgets: core's
   * `node.health` deletes the Node's NodeClaim once a condition has held (from its
   * lastTransitionTime) for the policy's toleration, unless more than 20 % of the NodePool's
   * Nodes match a policy. `[]` turns node repair off. A fixed list: read on every reconcile.
   */
  repairPolicies(): readonly RepairPolicy[];

  /** The NodeClass kinds this provider resolves; the first is the default. */
  supportedNodeClasses(): readonly NodeClassKindRef[];

  /** Present when the cloud announces interruptions (AWS SQS, Azure scheduled events, ...). */
  readonly interruptions?: InterruptionSource;
}
