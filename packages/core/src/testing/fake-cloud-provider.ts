import { Labels } from '../apis/labels.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import { type Clock, FakeClock } from '../clock/clock.js';
import type {
  CloudProvider,
  DriftReason,
  NodeClassKindRef,
  RepairPolicy,
} from '../cloudprovider/cloud-provider.js';
import {
  InsufficientCapacityError,
  NodeClaimNotFoundError,
  NodeClassNotReadyError,
} from '../cloudprovider/errors.js';
import type { InstanceType } from '../cloudprovider/instance-type.js';
import { isOfferingCompatible, type Offering } from '../cloudprovider/offering.js';
import { UnavailableOfferingsCache } from '../cloudprovider/unavailable-offerings.js';
import { formatTime } from '../kube/object.js';
import { Requirements } from '../scheduling/requirements/requirements.js';
import { fits } from '../scheduling/resources/fits.js';
import { formatResourceList, parseResourceList } from '../scheduling/resources/resource-list.js';
import { fakeInstanceTypes } from './fake-instance-types.js';
import { TestNodeClassRef } from './node-class.js';

/** The provider methods a FakeCloudProvider records and can fail. */
export type FakeMethod = 'create' | 'delete' | 'get' | 'list' | 'getInstanceTypes' | 'isDrifted';

/** Decides, per call, whether the call fails: return the error to throw, or undefined. */
export type FailurePolicy = (argument: unknown, call: number) => Error | undefined;

/** How to build a FakeCloudProvider. */
export interface FakeCloudProviderOptions {
  /** Default `fake`. */
  readonly name?: string;
  /** Default `fakeInstanceTypes()`. */
  readonly instanceTypes?: readonly InstanceType[];
  /** Launch times and termination delays; default a FakeClock at 0. */
  readonly clock?: Clock;
  /** How long an instance keeps shutting down after the first delete; default 0 (gone at once). */
  readonly terminationDelayMs?: number;
  /** Default `[TestNodeClassRef]` (group karpenter.test.sh, kind TestNodeClass). */
  readonly nodeClasses?: readonly NodeClassKindRef[];
  /** Offerings listed here are unavailable (reported so, never launched); create marks refusals. */
  readonly unavailableOfferings?: UnavailableOfferingsCache;
  readonly repairPolicies?: readonly RepairPolicy[];
  /** Image every instance reports; default `fake-image-1`. */
  readonly imageID?: string;
  /** What `wellKnownLabels()` reports; default none beyond core's. */
  readonly wellKnownLabels?: ReadonlySet<string>;
}

interface Instance {
  /** The hydrated claim create returned, as get/list report it. */
  readonly claim: NodeClaim;
  readonly providerID: string;
  /** Set by the first delete: when the instance is gone. */
  goneAt?: number;
}

/** The calls a FakeCloudProvider received, in order, with copies of their arguments. */
export interface FakeCalls {
  readonly create: NodeClaim[];
  readonly delete: NodeClaim[];
  readonly get: string[];
  readonly list: number;
  readonly getInstanceTypes: NodePool[];
  readonly isDrifted: NodeClaim[];
}

/**
 * An in-memory CloudProvider honouring the provider contract (cloudprovider/README.md), for
 * tests and simulations: create launches the cheapest available offering the claim's
 * requirements allow among the instance types that fit its requests, is idempotent per
 * NodeClaim name (a retry returns the instance already launched) and hydrates the claim with
 * providerID `fake://<name>`, labels, capacity and allocatable; delete keeps succeeding while
 * the instance shuts down (`terminationDelayMs`) and throws NodeClaimNotFoundError once it is
 * gone; every call is recorded; any method can be made to fail per call.
 */
export class FakeCloudProvider implements CloudProvider {
  readonly name: string;
  readonly #clock: Clock;
  readonly #terminationDelayMs: number;
  readonly #nodeClasses: readonly NodeClassKindRef[];
  readonly #repairPolicies: readonly RepairPolicy[];
  readonly #unavailable: UnavailableOfferingsCache;
  readonly #imageID: string;
  #instanceTypes: InstanceType[];
  readonly #instances = new Map<string, Instance>();
  readonly #drifted = new Map<string, DriftReason>();
  readonly #failures = new Map<FakeMethod, (Error | FailurePolicy)[]>();
  readonly #policies = new Map<FakeMethod, FailurePolicy>();
  readonly #counts = new Map<FakeMethod, number>();
  readonly #calls = {
    create: [] as NodeClaim[],
    delete: [] as NodeClaim[],
    get: [] as string[],
    list: 0,
    getInstanceTypes: [] as NodePool[],
    isDrifted: [] as NodeClaim[],
  };

  constructor(options: FakeCloudProviderOptions = {}) {
    this.name = options.name ?? 'fake';
    this.#clock = options.clock ?? new FakeClock(0);
    this.#terminationDelayMs = options.terminationDelayMs ?? 0;
    this.#nodeClasses = options.nodeClasses ?? [
      { group: TestNodeClassRef.group, kind: TestNodeClassRef.kind },
    ];
    this.#repairPolicies = options.repairPolicies ?? [];
    this.#unavailable = options.unavailableOfferings ?? new UnavailableOfferingsCache(this.#clock);
    this.#imageID = options.imageID ?? 'fake-image-1';
    this.#instanceTypes = [...(options.instanceTypes ?? fakeInstanceTypes())];
    this.#wellKnownLabels = options.wellKnownLabels ?? new Set();
  }

  readonly #wellKnownLabels: ReadonlySet<string>;

  wellKnownLabels(): ReadonlySet<string> {
    return this.#wellKnownLabels;
  }

  /** What was called so far. */
  get calls(): FakeCalls {
    return this.#calls;
  }

  /** The next `times` calls of `method` throw `error` (queued after earlier failNext calls). */
  failNext(method: FakeMethod, error: Error, times = 1): void {
    const queue = this.#failures.get(method) ?? [];
    for (let i = 0; i < times; i++) queue.push(error);
    this.#failures.set(method, queue);
  }

  /** Every call of `method` consults `policy` (after queued failures); undefined clears it. */
  failWhen(method: FakeMethod, policy: FailurePolicy | undefined): void {
    if (policy === undefined) this.#policies.delete(method);
    else this.#policies.set(method, policy);
  }

  /** Drops every injected failure. */
  clearFailures(): void {
    this.#failures.clear();
    this.#policies.clear();
  }

  /** Replaces the catalog. */
  setInstanceTypes(types: readonly InstanceType[]): void {
    this.#instanceTypes = [...types];
  }

  /** The cache of unavailable offerings the fake consults and fills. */
  get unavailableOfferings(): UnavailableOfferingsCache {
    return this.#unavailable;
  }

  /** Makes `isDrifted` report `reason` for the instance (undefined clears it). */
  setDrifted(providerID: string, reason: DriftReason | undefined): void {
    if (reason === undefined) this.#drifted.delete(providerID);
    else this.#drifted.set(providerID, reason);
  }

  /** Instances that exist now (running or shutting down), as list() reports them. */
  instances(): NodeClaim[] {
    return this.#alive().map((i) => structuredClone(i.claim));
  }

  /** Adds an instance no NodeClaim asked for (a leak, for garbage collection tests). */
  addInstance(claim: NodeClaim): NodeClaim {
    const name = claim.metadata.name ?? 'leaked';
    const providerID = claim.status?.providerID ?? `fake://${name}`;
    const stored = structuredClone(claim);
    stored.status = { ...stored.status, providerID };
    stored.metadata.creationTimestamp ??= formatTime(this.#clock.now());
    this.#instances.set(name, { claim: stored, providerID });
    return structuredClone(stored);
  }

  /** Makes an instance vanish without a delete (terminated out of band). */
  removeInstance(providerID: string): void {
    for (const [name, instance] of this.#instances) {
      if (instance.providerID === providerID) this.#instances.delete(name);
    }
  }

  async create(nodeClaim: NodeClaim): Promise<NodeClaim> {
    this.#calls.create.push(structuredClone(nodeClaim));
    this.#maybeFail('create', nodeClaim);
    const name = nodeClaim.metadata.name;
    if (name === undefined) throw new Error('NodeClaim has no name');
    const existing = this.#instances.get(name);
    if (existing !== undefined && !this.#isGone(existing)) return structuredClone(existing.claim);
    const ref = nodeClaim.spec.nodeClassRef;
    if (!this.#nodeClasses.some((c) => c.group === ref.group && c.kind === ref.kind)) {
      throw new NodeClassNotReadyError(`NodeClass ${ref.group}/${ref.kind} ${ref.name} is not supported`);
    }
    const choice = this.#choose(nodeClaim);
    if (choice === undefined) {
      throw new InsufficientCapacityError(
        `no offering the NodeClaim ${name} allows has capacity`,
        this.#compatibleOfferings(nodeClaim).map(({ type, offering }) =>
          UnavailableOfferingsCache.key({
            capacityType: offering.capacityType,
            instanceType: type.name,
            zone: offering.zone,
          }),
        ),
      );
    }
    const { type, offering } = choice;
    const hydrated = structuredClone(nodeClaim);
    hydrated.metadata.creationTimestamp = formatTime(this.#clock.now());
    hydrated.metadata.labels = {
      ...type.requirements.labels(),
      [Labels.Zone]: offering.zone,
      [Labels.CapacityType]: offering.capacityType,
      ...nodeClaim.metadata.labels,
    };
    const providerID = `fake://${name}`;
    hydrated.status = {
      ...hydrated.status,
      providerID,
      imageID: this.#imageID,
      capacity: formatResourceList(type.capacity),
      allocatable: formatResourceList(type.allocatable),
    };
    this.#instances.set(name, { claim: hydrated, providerID });
    return structuredClone(hydrated);
  }

  async delete(nodeClaim: NodeClaim): Promise<void> {
    this.#calls.delete.push(structuredClone(nodeClaim));
    this.#maybeFail('delete', nodeClaim);
    const instance = this.#byProviderID(nodeClaim.status?.providerID);
    if (instance === undefined)
      throw new NodeClaimNotFoundError(`instance ${nodeClaim.status?.providerID} not found`);
    if (instance.goneAt === undefined) {
      instance.goneAt = this.#clock.now() + this.#terminationDelayMs;
      if (this.#terminationDelayMs <= 0) this.#forget(instance);
    }
  }

  async get(providerID: string): Promise<NodeClaim> {
    this.#calls.get.push(providerID);
    this.#maybeFail('get', providerID);
    const instance = this.#byProviderID(providerID);
    if (instance === undefined) throw new NodeClaimNotFoundError(`instance ${providerID} not found`);
    return structuredClone(instance.claim);
  }

  async list(): Promise<NodeClaim[]> {
    this.#calls.list++;
    this.#maybeFail('list', undefined);
    return this.instances();
  }

  async getInstanceTypes(nodePool: NodePool): Promise<InstanceType[]> {
    this.#calls.getInstanceTypes.push(structuredClone(nodePool));
    this.#maybeFail('getInstanceTypes', nodePool);
    return this.#instanceTypes.map((type) => ({
      ...type,
      offerings: type.offerings.map((o) =>
        this.#offeringAvailable(type, o) ? o : { ...o, available: false },
      ),
    }));
  }

  async isDrifted(nodeClaim: NodeClaim): Promise<DriftReason | undefined> {
    this.#calls.isDrifted.push(structuredClone(nodeClaim));
    this.#maybeFail('isDrifted', nodeClaim);
    const providerID = nodeClaim.status?.providerID;
    return providerID === undefined ? undefined : this.#drifted.get(providerID);
  }

  repairPolicies(): readonly RepairPolicy[] {
    return this.#repairPolicies;
  }

  supportedNodeClasses(): readonly NodeClassKindRef[] {
    return this.#nodeClasses;
  }

  #maybeFail(method: FakeMethod, argument: unknown): void {
    const call = (this.#counts.get(method) ?? 0) + 1;
    this.#counts.set(method, call);
    const queued = this.#failures.get(method)?.shift();
    const error =
      queued === undefined
        ? this.#policies.get(method)?.(argument, call)
        : queued instanceof Error
          ? queued
          : queued(argument, call);
    if (error !== undefined) throw error;
  }

  #compatibleOfferings(claim: NodeClaim): { type: InstanceType; offering: Offering }[] {
    const requirements = Requirements.fromNodeSelectorRequirements(claim.spec.requirements);
    const requests = parseResourceList(claim.spec.resources?.requests);
    const out: { type: InstanceType; offering: Offering }[] = [];
    for (const type of this.#instanceTypes) {
      if (!requirements.intersects(type.requirements) || !fits(requests, type.allocatable)) continue;
      for (const offering of type.offerings) {
        if (isOfferingCompatible(offering, requirements)) out.push({ type, offering });
      }
    }
    return out;
  }

  #choose(claim: NodeClaim): { type: InstanceType; offering: Offering } | undefined {
    let best: { type: InstanceType; offering: Offering } | undefined;
    for (const candidate of this.#compatibleOfferings(claim)) {
      if (!this.#offeringAvailable(candidate.type, candidate.offering)) continue;
      if (best === undefined || candidate.offering.price < best.offering.price) best = candidate;
    }
    return best;
  }

  #offeringAvailable(type: InstanceType, offering: Offering): boolean {
    return (
      offering.available &&
      !this.#unavailable.isUnavailable({
        capacityType: offering.capacityType,
        instanceType: type.name,
        zone: offering.zone,
      })
    );
  }

  #byProviderID(providerID: string | undefined): Instance | undefined {
    if (providerID === undefined) return undefined;
    return this.#alive().find((i) => i.providerID === providerID);
  }

  #alive(): Instance[] {
    for (const instance of [...this.#instances.values()]) if (this.#isGone(instance)) this.#forget(instance);
    return [...this.#instances.values()];
  }

  #isGone(instance: Instance): boolean {
    return instance.goneAt !== undefined && instance.goneAt <= this.#clock.now();
  }

  #forget(instance: Instance): void {
    for (const [name, i] of this.#instances) if (i === instance) this.#instances.delete(name);
  }
}
