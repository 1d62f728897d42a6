import type { Timers } from '@nodewright/core/clock';
import type { InstanceType, UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import type { GCENodeClass } from '../apis/index.js';
import { composedPrices } from '../pricing/components.js';
import type { GcePricingProvider } from '../pricing/provider.js';
import type { GcpLogger } from '../refresh/logger.js';
import { Periodic } from '../refresh/periodic.js';
import type { GceComputeApi } from '../sdk/compute-api.js';
import { buildInstanceType } from './build.js';
import type { GceMachineTypeFacts } from './facts.js';
import { machineTypeFacts } from './machine-types.js';

/** How often the machine types are read again. */
export const MachineTypesRefreshMs = 60 * 60 * 1000;

export interface GceInstanceTypeProviderDeps {
  readonly compute: Pick<GceComputeApi, 'aggregatedMachineTypes'>;
  readonly prices: GcePricingProvider;
  readonly region: string;
  readonly timers: Timers;
  readonly logger: GcpLogger;
  readonly unavailableOfferings: UnavailableOfferingsCache;
  readonly refreshIntervalMs?: number;
}

/**
 * The region's machine types as instance types. Facts come from the aggregated machineTypes list
 * (every page; the region's zones; deprecated types dropped), read at `start()` and every hour;
 * a failed read is logged and the previous facts kept. Offerings are priced from the pricing
 * provider and marked unavailable from the unavailable-offerings cache on every call, so a mark
 * is seen by the next solve.
 */
export class GceInstanceTypeProvider {
  readonly #deps: GceInstanceTypeProviderDeps;
  readonly #loop: Periodic;
  #facts: readonly GceMachineTypeFacts[] = [];

  constructor(deps: GceInstanceTypeProviderDeps) {
    this.#deps = deps;
    this.#loop = new Periodic(deps.timers, deps.refreshIntervalMs ?? MachineTypesRefreshMs, () =>
      this.refresh(),
    );
  }

  start(): void {
    this.#loop.start();
  }

  stop(): void {
    this.#loop.stop();
  }

  /** The facts last read. */
  facts(): readonly GceMachineTypeFacts[] {
    return this.#facts;
  }

  async refresh(): Promise<void> {
    try {
      const records = [];
      for await (const r of this.#deps.compute.aggregatedMachineTypes()) records.push(r);
      const facts = machineTypeFacts(records, this.#deps.region);
      if (facts.length === 0) {
        this.#deps.logger.warn(
          { region: this.#deps.region, records: records.length },
          'the aggregated machine type list has no type in the region; keeping the previous ones',
        );
        return;
      }
      this.#facts = facts;
      this.#deps.logger.info({ region: this.#deps.region, machineTypes: facts.length }, 'read machine types');
    } catch (err) {
      this.#deps.logger.error(
        { err, region: this.#deps.region },
        'could not list machine types; keeping the previous ones',
      );
    }
  }

  /** Every machine type of the region shaped by the NodeClass, offerings priced and marked. */
  async forNodeClass(nodeClass: Pick<GCENodeClass, 'spec'>): Promise<InstanceType[]> {
    await Promise.all([this.#loop.ready(), this.#deps.prices.ready()]);
    const prices = composedPrices(this.#facts, this.#deps.prices.components());
    const cache = this.#deps.unavailableOfferings;
    const settings = { kubelet: nodeClass.spec.kubeletConfiguration, disks: nodeClass.spec.disks };
    return this.#facts.map((f) =>
      buildInstanceType(f, settings, {
        prices,
        region: this.#deps.region,
        unavailable: (o) => cache.isUnavailable(o),
      }),
    );
  }
}
