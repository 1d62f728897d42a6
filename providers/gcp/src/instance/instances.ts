import type { Timers } from '@nodewright/core/clock';
import { NodeClaimNotFoundError } from '@nodewright/core/cloudprovider';
import { clusterFilter } from '../launch/gce-labels.js';
import { DefaultRetryPolicy, type RetryPolicy, withRetry } from '../launch/retry.js';
import { type GceComputeApi, type GceInstanceRecord, isGceNotFound } from '../sdk/compute-api.js';
import type { GceInstanceRef } from './provider-id.js';

/** Statuses of an instance on its way out. */
const Leaving = new Set(['STOPPING', 'TERMINATED', 'SUSPENDING', 'SUSPENDED']);

export interface GceInstancesDeps {
  readonly compute: GceComputeApi;
  readonly timers: Timers;
  readonly clusterName: string;
  /** The region's zones (where list looks). */
  readonly zones: () => readonly string[];
  readonly retry?: RetryPolicy;
}

/** The cluster's instances: found per zone by their labels, read and deleted by name. */
export class GceInstances {
  readonly #deps: GceInstancesDeps;

  constructor(deps: GceInstancesDeps) {
    this.#deps = deps;
  }

  #call<T>(run: () => Promise<T>): Promise<T> {
    return withRetry(this.#deps.timers, this.#deps.retry ?? DefaultRetryPolicy, run);
  }

  /** @throws NodeClaimNotFoundError when there is no such instance. */
  async get(ref: GceInstanceRef): Promise<GceInstanceRecord> {
    try {
      return await this.#call(() => this.#deps.compute.getInstance(ref.zone, ref.name));
    } catch (err) {
      if (isGceNotFound(err)) throw new NodeClaimNotFoundError(`instance ${ref.zone}/${ref.name} not found`);
      throw err;
    }
  }

  /** Every instance of the cluster in every zone of the region (or one NodeClaim's). */
  async list(nodeClaim?: string): Promise<GceInstanceRecord[]> {
    const filter = clusterFilter(this.#deps.clusterName, nodeClaim);
    // One zone after the other: a throttled project is not helped by a burst of parallel lists.
    const out: GceInstanceRecord[] = [];
    for (const zone of this.#deps.zones()) {
      out.push(...(await this.#call(() => this.#deps.compute.listInstances(zone, filter))));
    }
    return out;
  }

  /**
   * Starts deleting the instance; returns while it is on its way out (already stopping, or the
   * delete just issued). @throws NodeClaimNotFoundError once it is gone.
   */
  async delete(ref: GceInstanceRef): Promise<void> {
    const record = await this.get(ref);
    if (Leaving.has(record.status ?? '')) return;
    try {
      await this.#call(() => this.#deps.compute.deleteInstance(ref.zone, ref.name));
    } catch (err) {
      if (isGceNotFound(err)) throw new NodeClaimNotFoundError(`instance ${ref.zone}/${ref.name} not found`);
      throw err;
    }
  }
}
