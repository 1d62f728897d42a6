import { Labels } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import type { Clock } from '../../clock/clock.js';
import type { Cancel, Timers } from '../../clock/timers.js';
import type {
  CloudProvider,
  DriftReason,
  InterruptionKind,
  InterruptionNotice,
  NodeClassKindRef,
  RepairPolicy,
} from '../../cloudprovider/cloud-provider.js';
import {
  CreateError,
  InsufficientCapacityError,
  NodeClaimNotFoundError,
  NodeClassNotReadyError,
} from '../../cloudprovider/errors.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import type { Offering } from '../../cloudprovider/offering.js';
import { type OfferingKey, UnavailableOfferingsCache } from '../../cloudprovider/unavailable-offerings.js';
import { cloneJson } from '../../kube/json.js';
import { deepFreeze } from '../../kube/memory/frozen.js';
import { formatTime } from '../../kube/object.js';
import { RequirementError } from '../../scheduling/requirements/node-selector.js';
import { Requirements } from '../../scheduling/requirements/requirements.js';
import {
  formatResourceList,
  parseResourceList,
  type ResourceList,
  ResourceListError,
} from '../../scheduling/resources/resource-list.js';
import { type LatencySpec, sampleLatency } from '../latency/latency.js';
import type { SeededRandom } from '../random/random.js';
import { type ErrorHandler, rethrowUncaught } from '../settle/settle.js';
import { CostLedger, type CostRecord } from './cost-ledger.js';
import type { InstanceLifecycleListener, InstanceState, SimulatedInstance } from './instance.js';
import { SimulatedInterruptionQueue } from './interruption-queue.js';
import { type LaunchCandidate, launchCandidates } from './launch-plan.js';
import { matchesOffering, OfferingRates } from './offering-match.js';
import type { CapacityOutage, InterruptionStorm, SimulatedCloudProviderOptions } from './options.js';

const HOUR_MS = 3_600_000;
const DEFAULT_NODE_CLASS: NodeClassKindRef = { group: 'sim.nodewright.dev', kind: 'SimulatedNodeClass' };

/** Reasons the simulated cloud gives when it refuses an offering (AWS's error codes). */
export const RefusalReasons = {
  InsufficientCapacity: 'InsufficientInstanceCapacity',
  Outage: 'InsufficientInstanceCapacity (scripted outage)',
  ReservationExhausted: 'ReservationCapacityExceeded',
  SpotInterruption: 'SpotInterruption',
} as const;

interface MutableInstance {
  id: string;
  providerID: string;
  nodeClaimName: string;
  nodeClaim: NodeClaim;
  instanceType: InstanceType;
  offering: Offering;
  imageID: string;
  state: InstanceState;
  launchedAt: number;
  runningAt?: number;
  terminatingAt?: number;
  terminatedAt?: number;
  interruption?: { kind: InterruptionKind; noticeAt: number; deadline: number };
  timers: Cancel[];
}

/**
 * A CloudProvider with no cloud behind it, for simulations and controller tests at scale. It
 * honours the contract of cloudprovider/README.md: `create` tries every offering the claim
 * allows in price order within one call, as an EC2 fleet would, marking each refused one
 * unavailable (3 min), and launches on the first that has capacity; it returns at once with the
 * instance `pending`, which turns `running` (and is handed to `registration`, whose kubelet
 * boots and registers the Node) after the launch latency, on a timer; it is idempotent per
 * NodeClaim name; `delete` terminates after a latency and then answers NodeClaimNotFound.
 *
 * What the cloud does on its own is scripted or drawn from the seeded Random: launch and
 * termination latency, per-offering insufficient-capacity probabilities and outage windows,
 * spot interruptions (a Poisson rate per instance, or storms) delivered through `interruptions`
 * with a deadline after which the instance is taken, drift by image or by script. A ledger bills
 * every instance from launch to termination.
 *
 * Instance types do not depend on the NodePool: every NodePool sees the whole catalog.
 */
export class SimulatedCloudProvider implements CloudProvider {
  readonly name: string;
  readonly interruptions: SimulatedInterruptionQueue;
  readonly unavailableOfferings: UnavailableOfferingsCache;
  readonly ledger: CostLedger;

  readonly #clock: Clock;
  readonly #timers: Timers;
  readonly #catalog: readonly InstanceType[];
  readonly #hasReservations: boolean;
  readonly #wellKnownLabels: ReadonlySet<string>;
  readonly #iceRandom: SeededRandom;
  readonly #launchRandom: SeededRandom;
  readonly #terminationRandom: SeededRandom;
  readonly #spotRandom: SeededRandom;
  readonly #stormRandom: SeededRandom;
  readonly #launchLatency: LatencySpec;
  readonly #terminationLatency: LatencySpec;
  readonly #registration: InstanceLifecycleListener | undefined;
  readonly #iceRates: OfferingRates;
  readonly #outages: CapacityOutage[];
  readonly #offeringsPerCreate: number;
  readonly #spotRate: number;
  readonly #noticeMs: number;
  readonly #ttlMs: number;
  readonly #nodeClasses: readonly NodeClassKindRef[];
  readonly #repairPolicies: readonly RepairPolicy[];
  readonly #region: string | undefined;
  readonly #onError: ErrorHandler;
  #imageID: string;

  readonly #instances: MutableInstance[] = [];
  /** The instances not terminated, in launch order: what `list` returns. */
  readonly #live = new Set<MutableInstance>();
  /**
   * Each instance's view as `list` last gave it, frozen and kept while it is the same (until the
   * instance starts terminating): garbage collection lists every instance every two minutes, and
   * copying hundreds of claims each time was a measurable part of a long simulation.
   */
  readonly #listed = new WeakMap<
    MutableInstance,
    { readonly terminatingAt: number | undefined; readonly view: NodeClaim }
  >();
  readonly #byProviderID = new Map<string, MutableInstance>();
  /** The live (not terminated) instance of each claim name. */
  readonly #byClaim = new Map<string, MutableInstance>();
  readonly #drift = new Map<string, DriftReason>();
  readonly #notReadyNodeClasses = new Set<string>();
  #seq = 0;

  constructor(options: SimulatedCloudProviderOptions) {
    this.name = options.name ?? 'simulated';
    this.#clock = options.clock;
    this.#timers = options.timers;
    this.#catalog = options.catalog;
    this.#hasReservations = options.catalog.some((t) =>
      t.offerings.some((o) => o.reservationCapacity !== undefined),
    );
    this.#wellKnownLabels = options.wellKnownLabels ?? new Set();
    this.#iceRandom = options.random.fork('ice');
    this.#launchRandom = options.random.fork('launch');
    this.#terminationRandom = options.random.fork('termination');
    this.#spotRandom = options.random.fork('spot');
    this.#stormRandom = options.random.fork('storm');
    this.#launchLatency = options.launchLatency ?? 0;
    this.#terminationLatency = options.terminationLatency ?? 0;
    this.#registration = options.registration;
    this.#iceRates = new OfferingRates(options.insufficientCapacityRate);
    this.#outages = [...(options.outages ?? [])];
    this.#offeringsPerCreate = options.offeringsPerCreate ?? Number.POSITIVE_INFINITY;
    this.#spotRate = options.spotInterruptionRatePerHour ?? 0;
    this.#noticeMs = options.interruptionNoticeMs ?? 120_000;
    this.#ttlMs = options.unavailableOfferingsTtlMs ?? 3 * 60_000;
    this.unavailableOfferings =
      options.unavailableOfferings ?? new UnavailableOfferingsCache(options.clock, this.#ttlMs);
    this.#nodeClasses = options.nodeClasses ?? [DEFAULT_NODE_CLASS];
    this.#repairPolicies = options.repairPolicies ?? [];
    this.#region = options.region;
    this.#onError = options.onError ?? rethrowUncaught;
    this.#imageID = options.imageID ?? 'sim-image-1';
    this.ledger = new CostLedger(options.clock);
    this.interruptions = new SimulatedInterruptionQueue({
      clock: options.clock,
      timers: options.timers,
      ...(options.interruptionReceiveWaitMs !== undefined
        ? { waitMs: options.interruptionReceiveWaitMs }
        : {}),
    });
    for (const storm of options.interruptionStorms ?? []) this.scheduleStorm(storm);
  }

  // CloudProvider

  async create(nodeClaim: NodeClaim): Promise<NodeClaim> {
    const claimName = nodeClaim.metadata.name;
    if (claimName === undefined || claimName === '')
      throw new CreateError('InvalidNodeClaim', 'NodeClaim has no name');
    const existing = this.#byClaim.get(claimName);
    if (existing !== undefined && (existing.state === 'pending' || existing.state === 'running')) {
      return cloneJson(existing.nodeClaim);
    }
    const nodeClassName = nodeClaim.spec.nodeClassRef.name;
    if (this.#notReadyNodeClasses.has(nodeClassName)) {
      throw new NodeClassNotReadyError(`NodeClass ${nodeClassName} is not ready`);
    }
    const { requirements, requests } = parseClaim(nodeClaim);
    const candidates = launchCandidates(this.#catalog, requirements, requests, (key) =>
      this.#unavailable(key),
    );
    const refused: string[] = [];
    let chosen: LaunchCandidate | undefined;
    for (const candidate of candidates.slice(0, this.#offeringsPerCreate)) {
      const reason = this.#refusal(candidate);
      if (reason === undefined) {
        chosen = candidate;
        break;
      }
      this.unavailableOfferings.markUnavailable(candidate.key, reason, this.#ttlMs);
      refused.push(UnavailableOfferingsCache.key(candidate.key));
    }
    if (chosen === undefined) {
      throw new InsufficientCapacityError(
        candidates.length === 0
          ? 'no compatible offering is available for the NodeClaim'
          : refused.length < candidates.length
            ? `the ${refused.length} cheapest of ${candidates.length} compatible offerings lacked capacity (one create tries at most ${this.#offeringsPerCreate})`
            : `all ${candidates.length} compatible offerings lacked capacity`,
        refused,
      );
    }
    const latency = sampleLatency(this.#launchLatency, this.#launchRandom);
    const instance = this.#launch(nodeClaim, chosen, latency);
    return cloneJson(instance.nodeClaim);
  }

  async delete(nodeClaim: NodeClaim): Promise<void> {
    const instance = this.#find(nodeClaim);
    if (instance === undefined || instance.state === 'terminated') {
      throw new NodeClaimNotFoundError(`no instance for NodeClaim ${nodeClaim.metadata.name ?? ''}`);
    }
    this.#beginTermination(instance);
  }

  async get(providerID: string): Promise<NodeClaim> {
    const instance = this.#byProviderID.get(providerID);
    if (instance === undefined || instance.state === 'terminated') {
      throw new NodeClaimNotFoundError(`instance ${providerID} not found`);
    }
    return this.#view(instance);
  }

  async list(): Promise<NodeClaim[]> {
    return Array.from(this.#live, (i) => this.#listedView(i));
  }

  async getInstanceTypes(_nodePool: NodePool): Promise<InstanceType[]> {
    // As the real providers do, the answer is cached until an offering may have changed
    // availability: a mark or expiry in the unavailable-offerings cache, or a reserved instance
    // starting or ending. Solvers key their own caches on the array, so it must stay the same.
    const key = `${this.unavailableOfferings.generation()}/${this.#reservedInUse()}`;
    if (this.#typesCache?.key !== key) this.#typesCache = { key, types: this.#availableTypes() };
    return this.#typesCache.types;
  }

  #typesCache: { readonly key: string; readonly types: InstanceType[] } | undefined;

  /** Instances on reserved offerings that hold a reservation now, as a cache key part. */
  #reservedInUse(): string {
    if (!this.#hasReservations) return '';
    let out = '';
    for (const i of this.#byClaim.values()) {
      if (i.offering.capacityType === 'reserved' && i.state !== 'terminated') out += `${i.providerID},`;
    }
    return out;
  }

  #availableTypes(): InstanceType[] {
    return this.#catalog.map((type) => {
      let changed = false;
      const offerings = type.offerings.map((o) => {
        if (!o.available) return o;
        const key = { capacityType: o.capacityType, instanceType: type.name, zone: o.zone };
        if (!this.#unavailable(key)) return o;
        changed = true;
        return { ...o, available: false };
      });
      return changed ? { ...type, offerings } : type;
    });
  }

  wellKnownLabels(): ReadonlySet<string> {
    return this.#wellKnownLabels;
  }

  async isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined> {
    const instance = this.#find(nodeClaim);
    if (instance === undefined) return undefined;
    const scripted = this.#drift.get(instance.providerID);
    if (scripted !== undefined) return scripted;
    return instance.imageID !== this.#imageID ? 'ImageDrift' : undefined;
  }

  repairPolicies(): readonly RepairPolicy[] {
    return this.#repairPolicies;
  }

  supportedNodeClasses(): readonly NodeClassKindRef[] {
    return this.#nodeClasses;
  }

  // Scripting

  /** Every instance ever launched, in launch order, terminated ones included. */
  instances(): SimulatedInstance[] {
    return this.#instances.map((i) => snapshot(i));
  }

  /** The ledger's cost over [t0, t1). */
  costBetween(t0: number, t1: number): number {
    return this.ledger.costBetween(t0, t1);
  }

  /** The ledger's records (one per instance). */
  costRecords(): readonly CostRecord[] {
    return this.ledger.records();
  }

  /** Reports the instance drifted with this reason (undefined clears it). */
  setDrift(providerID: string, reason: DriftReason | undefined): void {
    if (reason === undefined) this.#drift.delete(providerID);
    else this.#drift.set(providerID, reason);
  }

  /** New instances boot this image; older ones report `ImageDrift`. */
  setImage(imageID: string): void {
    this.#imageID = imageID;
  }

  /** Makes `create` fail with NodeClassNotReady for claims of this NodeClass (by name). */
  setNodeClassReady(name: string, ready: boolean): void {
    if (ready) this.#notReadyNodeClasses.delete(name);
    else this.#notReadyNodeClasses.add(name);
  }

  /** Adds a capacity outage window. */
  addOutage(outage: CapacityOutage): void {
    this.#outages.push(outage);
  }

  /** Schedules a storm of interruptions (at once when its time has come). */
  scheduleStorm(storm: InterruptionStorm): void {
    this.#timers.after(storm.at - this.#clock.now(), () => this.#storm(storm));
  }

  /**
   * Sends an interruption notice for a live instance now: it is taken at now + the notice period
   * (default 2 min), and for spot its offering is marked unavailable. An instance is interrupted
   * at most once; returns undefined when there is nothing to interrupt.
   */
  interrupt(
    providerID: string,
    kind: InterruptionKind = 'SpotInterruption',
    noticeMs: number = this.#noticeMs,
  ): InterruptionNotice | undefined {
    const instance = this.#byProviderID.get(providerID);
    if (instance === undefined || instance.interruption !== undefined) return undefined;
    if (instance.state === 'terminated' || instance.state === 'shutting-down') return undefined;
    const now = this.#clock.now();
    const deadline = now + noticeMs;
    instance.interruption = { kind, noticeAt: now, deadline };
    const offering = {
      capacityType: instance.offering.capacityType,
      instanceType: instance.instanceType.name,
      zone: instance.offering.zone,
    };
    if (kind === 'SpotInterruption') {
      this.unavailableOfferings.markUnavailable(offering, RefusalReasons.SpotInterruption, this.#ttlMs);
    }
    const notice = this.interruptions.publish({
      kind,
      providerID,
      deadline,
      ...(kind === 'SpotInterruption' ? { offering } : {}),
      message: `${kind}: instance ${instance.id} (${offering.instanceType} ${offering.capacityType} in ${offering.zone}) is taken at ${formatTime(deadline)}`,
    });
    if (kind !== 'RebalanceRecommendation') {
      instance.timers.push(
        this.#timers.after(noticeMs, () => {
          if (instance.state === 'pending' || instance.state === 'running') this.#beginTermination(instance);
        }),
      );
    }
    return notice;
  }

  // Internals

  #launch(nodeClaim: NodeClaim, chosen: LaunchCandidate, latency: number): MutableInstance {
    const now = this.#clock.now();
    const id = `i-${(++this.#seq).toString(16).padStart(17, '0')}`;
    const providerID = `sim://${chosen.key.zone}/${id}`;
    const instance: MutableInstance = {
      id,
      providerID,
      nodeClaimName: nodeClaim.metadata.name ?? '',
      nodeClaim: this.#hydrate(nodeClaim, chosen, providerID),
      instanceType: chosen.instanceType,
      offering: chosen.offering,
      imageID: this.#imageID,
      state: 'pending',
      launchedAt: now,
      timers: [],
    };
    this.#instances.push(instance);
    this.#live.add(instance);
    this.#byProviderID.set(providerID, instance);
    this.#byClaim.set(instance.nodeClaimName, instance);
    this.ledger.start({
      instanceID: id,
      providerID,
      nodeClaimName: instance.nodeClaimName,
      instanceType: chosen.key.instanceType,
      zone: chosen.key.zone,
      capacityType: chosen.key.capacityType,
      pricePerHour: chosen.offering.price,
      startedAt: now,
    });
    // As EC2's RunInstances/CreateFleet: the call returns with the instance pending; it boots
    // (and its kubelet starts registering) only once it is running. A timer, not an awaited
    // sleep, so a controller calling create from a reconcile never waits on simulated time.
    const running = () => {
      if (instance.state !== 'pending') return;
      instance.state = 'running';
      instance.runningAt = this.#clock.now();
      this.#notify('launched', instance);
    };
    if (latency > 0) instance.timers.push(this.#timers.after(latency, running));
    else running();
    if (chosen.key.capacityType === 'spot' && this.#spotRate > 0) {
      const wait = Math.round(this.#spotRandom.exponential(HOUR_MS / this.#spotRate));
      instance.timers.push(this.#timers.after(wait, () => this.interrupt(providerID)));
    }
    return instance;
  }

  #hydrate(nodeClaim: NodeClaim, chosen: LaunchCandidate, providerID: string): NodeClaim {
    const claim = cloneJson(nodeClaim);
    const labels: Record<string, string> = { ...chosen.instanceType.requirements.labels() };
    labels[Labels.InstanceType] = chosen.instanceType.name;
    labels[Labels.Zone] = chosen.key.zone;
    labels[Labels.CapacityType] = chosen.key.capacityType;
    if (this.#region !== undefined) labels[Labels.Region] = this.#region;
    claim.metadata.labels = { ...(claim.metadata.labels ?? {}), ...labels };
    claim.status = {
      ...(claim.status ?? {}),
      providerID,
      imageID: this.#imageID,
      capacity: formatResourceList(chosen.instanceType.capacity),
      allocatable: formatResourceList(chosen.instanceType.allocatable),
    };
    return claim;
  }

  #view(instance: MutableInstance): NodeClaim {
    const claim = cloneJson(instance.nodeClaim);
    claim.metadata.creationTimestamp = formatTime(instance.launchedAt);
    if (instance.terminatingAt !== undefined)
      claim.metadata.deletionTimestamp = formatTime(instance.terminatingAt);
    return claim;
  }

  #listedView(instance: MutableInstance): NodeClaim {
    const kept = this.#listed.get(instance);
    if (kept !== undefined && kept.terminatingAt === instance.terminatingAt) return kept.view;
    const view = deepFreeze(this.#view(instance));
    this.#listed.set(instance, { terminatingAt: instance.terminatingAt, view });
    return view;
  }

  #find(nodeClaim: NodeClaim): MutableInstance | undefined {
    const providerID = nodeClaim.status?.providerID;
    if (providerID !== undefined && providerID !== '') return this.#byProviderID.get(providerID);
    return this.#byClaim.get(nodeClaim.metadata.name ?? '');
  }

  #unavailable(key: OfferingKey): boolean {
    if (this.unavailableOfferings.isUnavailable(key)) return true;
    return this.#reservationExhausted(key);
  }

  #reservationExhausted(key: OfferingKey): boolean {
    if (key.capacityType !== 'reserved') return false;
    const type = this.#catalog.find((t) => t.name === key.instanceType);
    const offering = type?.offerings.find((o) => o.capacityType === 'reserved' && o.zone === key.zone);
    const capacity = offering?.reservationCapacity;
    if (capacity === undefined) return false;
    let used = 0;
    for (const i of this.#byClaim.values()) {
      if (i.offering === offering && i.state !== 'terminated') used++;
    }
    return used >= capacity;
  }

  /** Why the cloud refuses a launch attempt on this offering now, or undefined when it accepts. */
  #refusal(candidate: LaunchCandidate): string | undefined {
    const now = this.#clock.now();
    if (
      this.#outages.some((o) => o.from <= now && now < o.until && matchesOffering(o.match, candidate.key))
    ) {
      return RefusalReasons.Outage;
    }
    if (this.#iceRandom.chance(this.#iceRates.rateFor(candidate.key)))
      return RefusalReasons.InsufficientCapacity;
    return undefined;
  }

  #beginTermination(instance: MutableInstance): void {
    if (instance.state === 'shutting-down' || instance.state === 'terminated') return;
    instance.state = 'shutting-down';
    instance.terminatingAt = this.#clock.now();
    const latency = sampleLatency(this.#terminationLatency, this.#terminationRandom);
    if (latency <= 0) this.#terminate(instance);
    else instance.timers.push(this.#timers.after(latency, () => this.#terminate(instance)));
  }

  #terminate(instance: MutableInstance): void {
    if (instance.state === 'terminated') return;
    instance.state = 'terminated';
    this.#live.delete(instance);
    instance.terminatedAt = this.#clock.now();
    for (const cancel of instance.timers) cancel();
    instance.timers = [];
    this.ledger.stop(instance.id, instance.terminatedAt);
    if (this.#byClaim.get(instance.nodeClaimName) === instance) this.#byClaim.delete(instance.nodeClaimName);
    this.#notify('terminated', instance);
  }

  #storm(storm: InterruptionStorm): void {
    const match = storm.match ?? { capacityType: 'spot' };
    const live = this.#instances.filter(
      (i) =>
        (i.state === 'pending' || i.state === 'running') &&
        i.interruption === undefined &&
        matchesOffering(match, {
          capacityType: i.offering.capacityType,
          instanceType: i.instanceType.name,
          zone: i.offering.zone,
        }),
    );
    const count = storm.count ?? Math.ceil((storm.fraction ?? 1) * live.length);
    for (const instance of this.#stormRandom.shuffle(live).slice(0, Math.max(0, count))) {
      this.interrupt(instance.providerID, storm.kind ?? 'SpotInterruption');
    }
  }

  #notify(event: 'launched' | 'terminated', instance: MutableInstance): void {
    if (this.#registration === undefined) return;
    try {
      this.#registration[event](snapshot(instance));
    } catch (err) {
      this.#onError(err);
    }
  }
}

function parseClaim(nodeClaim: NodeClaim): { requirements: Requirements; requests: ResourceList } {
  try {
    return {
      requirements: Requirements.fromNodeSelectorRequirements(nodeClaim.spec.requirements),
      requests: parseResourceList(nodeClaim.spec.resources?.requests),
    };
  } catch (err) {
    if (err instanceof RequirementError || err instanceof ResourceListError) {
      throw new CreateError('InvalidNodeClaim', err.message, { cause: err });
    }
    throw err;
  }
}

function snapshot(i: MutableInstance): SimulatedInstance {
  return {
    id: i.id,
    providerID: i.providerID,
    nodeClaimName: i.nodeClaimName,
    nodeClaim: cloneJson(i.nodeClaim),
    instanceType: i.instanceType,
    offering: i.offering,
    imageID: i.imageID,
    state: i.state,
    launchedAt: i.launchedAt,
    ...(i.runningAt !== undefined ? { runningAt: i.runningAt } : {}),
    ...(i.terminatingAt !== undefined ? { terminatingAt: i.terminatingAt } : {}),
    ...(i.terminatedAt !== undefined ? { terminatedAt: i.terminatedAt } : {}),
    ...(i.interruption !== undefined ? { interruption: { ...i.interruption } } : {}),
  };
}
