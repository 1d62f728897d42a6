import { Labels, type NodeClaim } from '@nodewright/core/apis';
import type { Timers } from '@nodewright/core/clock';
import {
  CreateError,
  type InstanceType,
  InsufficientCapacityError,
  type Offering,
  type UnavailableOfferingsCache,
} from '@nodewright/core/cloudprovider';
import { fits, parseResourceList, Requirements } from '@nodewright/core/scheduling';
import type { GCENodeClass } from '../apis/index.js';
import { NvidiaGpuResource } from '../instancetype/labels.js';
import { imageForArch } from '../nodeclass/images.js';
import type { GcpLogger } from '../refresh/logger.js';
import type { GceComputeApi, GceOperation } from '../sdk/compute-api.js';
import { bulkInsertBody, commonLabels, type FlexibleGroup, flexibleGroup } from './bulk-insert.js';
import { instanceLabels } from './gce-labels.js';
import { instanceResource } from './instance-resource.js';
import { instanceMetadata } from './metadata.js';
import { type InsertFailure, operationFailure } from './operation-errors.js';
import { DefaultRetryPolicy, type RetryPolicy, withRetry } from './retry.js';

/** How long a stocked-out offering stays unavailable (GCE pools refill over tens of minutes). */
export const StockoutTtlMs = 30 * 60_000;
/** How long a quota refusal keeps the type's capacity type off in every zone of the region. */
export const QuotaTtlMs = 10 * 60_000;
/** At most this many offerings are tried within one create before it reports InsufficientCapacity. */
export const MaxLaunchAttempts = 3;
/** Operations are waited on at most this long in all (GCE's `wait` returns every ~2 minutes). */
export const MaxOperationWaitCalls = 10;

/** One way to launch the claim: a type's offering. */
export interface LaunchCandidate {
  readonly instanceType: InstanceType;
  readonly offering: Offering;
}

/**
 * The claim's launchable offerings, cheapest first (then type name, then zone): of types whose
 * requirements the claim allows and whose allocatable fits its requests, the available offerings
 * the claim's zone and capacity-type requirements allow.
 */
export function launchCandidates(
  nodeClaim: NodeClaim,
  instanceTypes: readonly InstanceType[],
): LaunchCandidate[] {
  const requirements = Requirements.fromNodeSelectorRequirements(nodeClaim.spec.requirements);
  const requests = parseResourceList(nodeClaim.spec.resources?.requests);
  const out: LaunchCandidate[] = [];
  for (const t of instanceTypes) {
    if (!requirements.intersects(t.requirements) || !fits(requests, t.allocatable)) continue;
    for (const o of t.offerings) {
      if (o.available && requirements.intersects(o.requirements)) out.push({ instanceType: t, offering: o });
    }
  }
  return out.sort(
    (a, b) =>
      a.offering.price - b.offering.price ||
      a.instanceType.name.localeCompare(b.instanceType.name) ||
      a.offering.zone.localeCompare(b.offering.zone),
  );
}

export interface GceLauncherDeps {
  readonly compute: GceComputeApi;
  readonly timers: Timers;
  readonly unavailableOfferings: UnavailableOfferingsCache;
  readonly logger: GcpLogger;
  readonly clusterName: string;
  readonly region: string;
  readonly defaultNetwork?: string | undefined;
  readonly retry?: RetryPolicy;
  /**
   * `bulkInsert` (default): one instances.bulkInsert offers the cheapest offering's zone several
   * machine types at once (see flexibleGroup), so a stockout of the first choice costs no extra
   * round trip; `insert`: one instances.insert per offering.
   */
  readonly launchMode?: LaunchMode;
  /** Recorded on each instance for Kubernetes-version drift; see GcpSettings.kubernetesVersion. */
  readonly kubernetesVersion?: string | undefined;
}

/** How a claim is launched; see GceLauncherDeps.launchMode. */
export type LaunchMode = 'bulkInsert' | 'insert';

/** A launched instance: what create hydrates the claim from. */
export interface Launched {
  readonly name: string;
  readonly zone: string;
  readonly capacityType: string;
  readonly instanceType: InstanceType;
  readonly image: string;
}

/**
 * Launches a NodeClaim with instances.insert: the cheapest launchable offering first, waiting on
 * its zone operation; a stockout marks that offering unavailable (30 min), a quota refusal marks
 * the type's capacity type unavailable in every zone of the region (10 min), and the next cheapest
 * offering is tried, at most {@link MaxLaunchAttempts} in one create. Throttling and 5xx are
 * retried with backoff. A failed insert leaves no instance (GCE creates none).
 */
export class GceLauncher {
  readonly #deps: GceLauncherDeps;

  constructor(deps: GceLauncherDeps) {
    this.#deps = deps;
  }

  async launch(input: {
    nodeClaim: NodeClaim;
    nodeClass: GCENodeClass;
    instanceTypes: readonly InstanceType[];
  }): Promise<Launched> {
    const { nodeClaim, nodeClass } = input;
    const name = nodeClaim.metadata.name ?? '';
    const tried: string[] = [];
    const failures: string[] = [];
    for (let attempt = 0; attempt < MaxLaunchAttempts; attempt++) {
      // Recomputed each time: a failure marks offerings (a quota one, several) unavailable.
      const candidates = launchCandidates(nodeClaim, input.instanceTypes).filter(
        (c) => !this.#deps.unavailableOfferings.isUnavailable(this.#key(c)) && !tried.includes(this.#id(c)),
      );
      const next = candidates[0];
      if (next === undefined) break;
      const arch = next.instanceType.requirements.labels()[Labels.Arch] ?? 'amd64';
      const image = imageForArch(nodeClass, arch);
      if (image === undefined) {
        throw new CreateError(
          'ImageNotFound',
          `GCENodeClass ${nodeClass.metadata.name ?? ''} resolved no image for ${arch} (status.images)`,
        );
      }
      const group =
        (this.#deps.launchMode ?? 'bulkInsert') === 'bulkInsert' ? flexibleGroup(candidates) : undefined;
      if (group !== undefined && group.candidates.length > 1) {
        for (const c of group.candidates) tried.push(this.#id(c));
        const result = await this.#bulkInsert(input, group, image);
        if ('launched' in result) {
          return {
            name,
            zone: group.zone,
            capacityType: group.capacityType,
            instanceType: result.launched.instanceType,
            image,
          };
        }
        const { failure } = result;
        const ids = group.candidates.map((c) => this.#id(c));
        failures.push(`${ids.join('|')}: ${failure.code}`);
        if (failure.kind === 'other') {
          throw new CreateError(
            'LaunchFailed',
            `instances.bulkInsert ${ids.join('|')} failed: ${failure.code}: ${failure.message}`,
          );
        }
        // GCE tried every type of the request in that zone and found none with capacity.
        for (const c of group.candidates) this.#markUnavailable(c, failure, input.instanceTypes);
        continue;
      }
      tried.push(this.#id(next));
      const failure = await this.#insert(input, next, image);
      if (failure === undefined) {
        return {
          name,
          zone: next.offering.zone,
          capacityType: next.offering.capacityType,
          instanceType: next.instanceType,
          image,
        };
      }
      failures.push(`${this.#id(next)}: ${failure.code}`);
      if (failure.kind === 'other') {
        throw new CreateError(
          'LaunchFailed',
          `instances.insert ${this.#id(next)} failed: ${failure.code}: ${failure.message}`,
        );
      }
      this.#markUnavailable(next, failure, input.instanceTypes);
    }
    if (failures.length === 0) {
      throw new InsufficientCapacityError(
        `NodeClaim ${name}: no available offering satisfies its requirements and fits its requests`,
      );
    }
    throw new InsufficientCapacityError(
      `NodeClaim ${name}: no capacity after ${failures.length} offering(s): ${failures.join('; ')}`,
      tried,
    );
  }

  #key(c: LaunchCandidate) {
    return {
      capacityType: c.offering.capacityType,
      instanceType: c.instanceType.name,
      zone: c.offering.zone,
    };
  }

  #id(c: LaunchCandidate): string {
    return `${c.offering.capacityType}:${c.instanceType.name}:${c.offering.zone}`;
  }

  #markUnavailable(c: LaunchCandidate, failure: InsertFailure, types: readonly InstanceType[]): void {
    const cache = this.#deps.unavailableOfferings;
    const reason = `${failure.code}: ${failure.message}`;
    if (failure.kind === 'stockout') {
      cache.markUnavailable(this.#key(c), reason, StockoutTtlMs);
    } else {
      // Quota is regional: every zone of the type refuses the same capacity type.
      const zones = types.find((t) => t.name === c.instanceType.name)?.offerings.map((o) => o.zone) ?? [
        c.offering.zone,
      ];
      for (const zone of new Set(zones)) {
        cache.markUnavailable({ ...this.#key(c), zone }, reason, QuotaTtlMs);
      }
    }
    this.#deps.logger.warn(
      { offering: this.#id(c), code: failure.code },
      'offering has no capacity; marked unavailable and trying the next cheapest',
    );
  }

  /** Inserts and waits for the operation; undefined on success, else why it failed. */
  async #insert(
    input: { nodeClaim: NodeClaim; nodeClass: GCENodeClass },
    c: LaunchCandidate,
    image: string,
  ): Promise<InsertFailure | undefined> {
    const body = this.#instanceBody(input, c, c.instanceType.requirements.labels(), image);
    const policy = this.#deps.retry ?? DefaultRetryPolicy;
    const zone = c.offering.zone;
    const requestId = crypto.randomUUID();
    // The same requestId on every retry: GCE answers a repeated one with the first operation.
    let op = await withRetry(this.#deps.timers, policy, () =>
      this.#deps.compute.insertInstance(zone, body, requestId),
    );
    op = await this.waitDone(zone, op);
    return operationFailure(op);
  }

  /**
   * One instances.bulkInsert of the claim's VM offering the group's types; waits for the
   * operation and reads back which type the cloud chose.
   */
  async #bulkInsert(
    input: { nodeClaim: NodeClaim; nodeClass: GCENodeClass },
    group: FlexibleGroup,
    image: string,
  ): Promise<{ launched: LaunchCandidate } | { failure: InsertFailure }> {
    const name = input.nodeClaim.metadata.name ?? '';
    const first = group.candidates[0]!;
    const body = bulkInsertBody(name, group, this.#instanceBody(input, first, commonLabels(group), image));
    const policy = this.#deps.retry ?? DefaultRetryPolicy;
    const requestId = crypto.randomUUID();
    let op = await withRetry(this.#deps.timers, policy, () =>
      this.#deps.compute.bulkInsertInstances(group.zone, body, requestId),
    );
    op = await this.waitDone(group.zone, op);
    const failure = operationFailure(op);
    if (failure !== undefined) return { failure };
    const vm = await withRetry(this.#deps.timers, policy, () =>
      this.#deps.compute.getInstance(group.zone, name),
    );
    const typeName = vm.machineType?.split('/').pop() ?? '';
    const launched = group.candidates.find((c) => c.instanceType.name === typeName);
    if (launched === undefined) {
      throw new CreateError(
        'LaunchFailed',
        `instances.bulkInsert made ${name} as ${typeName || 'an unknown type'}, which the request did not offer`,
      );
    }
    return { launched };
  }

  /** The instances.insert body of the claim's VM on `c`, the kubelet told `typeLabels`. */
  #instanceBody(
    input: { nodeClaim: NodeClaim; nodeClass: GCENodeClass },
    c: LaunchCandidate,
    typeLabels: Readonly<Record<string, string>>,
    image: string,
  ) {
    const { nodeClaim, nodeClass } = input;
    const labels = instanceLabels({
      clusterName: this.#deps.clusterName,
      nodePool: nodeClaim.metadata.labels?.[Labels.NodePool],
      nodeClaim: nodeClaim.metadata.name ?? '',
      nodeClass: nodeClass.metadata.name ?? '',
      userLabels: nodeClass.spec.labels,
    });
    const kubeLabels = {
      ...typeLabels,
      ...nodeClaim.metadata.labels,
      [Labels.Zone]: c.offering.zone,
      [Labels.CapacityType]: c.offering.capacityType,
    };
    return instanceResource(
      {
        name: nodeClaim.metadata.name ?? '',
        zone: c.offering.zone,
        machineType: c.instanceType.name,
        capacityType: c.offering.capacityType === 'spot' ? 'spot' : 'on-demand',
        image,
        hasGpu: c.instanceType.capacity.has(NvidiaGpuResource),
        labels,
        metadata: instanceMetadata({
          clusterName: this.#deps.clusterName,
          nodeClaim,
          nodeClass,
          labels: kubeLabels,
          image,
          kubernetesVersion: this.#deps.kubernetesVersion,
        }),
        defaultNetwork: this.#deps.defaultNetwork,
      },
      nodeClass,
    );
  }

  /** Waits on a zone operation until it is DONE (each `wait` returns within about two minutes). */
  async waitDone(zone: string, first: GceOperation): Promise<GceOperation> {
    let op = first;
    const policy = this.#deps.retry ?? DefaultRetryPolicy;
    for (let i = 0; op.status !== 'DONE' && i < MaxOperationWaitCalls; i++) {
      const name = op.name ?? '';
      op = await withRetry(this.#deps.timers, policy, () => this.#deps.compute.waitOperation(zone, name));
    }
    if (op.status !== 'DONE')
      throw new CreateError('LaunchTimedOut', `operation ${op.name ?? ''} in ${zone} did not finish`);
    return op;
  }
}
