import { canonicalJson } from '@nodewright/core/apis';
import type { Timers } from '@nodewright/core/clock';
import type { InstanceType, UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import type { AKSNodeClass } from '../apis/index.js';
import type { ProviderLogger } from '../logger.js';
import { PeriodicRefresh } from '../refresh/periodic-refresh.js';
import type { ComputeApi } from '../sdk/ports.js';
import { type AzurePrices, buildInstanceType } from './build.js';
import { type OfferedSku, offeredSku } from './facts.js';

/** How often Resource SKUs are read again. */
export const InstanceTypesRefreshMs = 12 * 60 * 60 * 1000;

export interface InstanceTypeProviderDeps {
  readonly compute: Pick<ComputeApi, 'listResourceSkus'>;
  readonly prices: AzurePrices;
  readonly region: string;
  readonly timers: Timers;
  readonly logger: ProviderLogger;
  readonly unavailableOfferings?: UnavailableOfferingsCache;
  readonly refreshIntervalMs?: number;
}

interface Snapshot {
  readonly skus: readonly OfferedSku[];
  readonly generation: number;
}

/**
 * VM sizes for AKSNodeClasses from Resource SKUs (all pages, the region's VM sizes, restrictions
 * honoured), read at `start()` and every interval on the injected Timers; a failed refresh is
 * logged and the previous list kept. `forNodeClass` never calls ARM once a list is loaded, and
 * rebuilds only when the list, the prices, the unavailable offerings or the NodeClass change.
 */
export class InstanceTypeProvider {
  readonly #deps: InstanceTypeProviderDeps;
  #snapshot: Snapshot | undefined;
  readonly #refresh: PeriodicRefresh;
  #generation = 0;
  readonly #memo = new Map<string, { key: string; types: InstanceType[] }>();

  constructor(deps: InstanceTypeProviderDeps) {
    this.#deps = deps;
    this.#refresh = new PeriodicRefresh(deps.timers, deps.refreshIntervalMs ?? InstanceTypesRefreshMs, () =>
      this.#load(),
    );
  }

  start(): void {
    this.#refresh.start();
  }

  stop(): void {
    this.#refresh.stop();
  }

  /** Reads every page of Resource SKUs; concurrent calls share one read. */
  refresh(): Promise<void> {
    return this.#refresh.refresh();
  }

  /** The sizes currently offered, for launch-time lookups. */
  offered(): readonly OfferedSku[] {
    return this.#snapshot?.skus ?? [];
  }

  async forNodeClass(nodeClass: AKSNodeClass): Promise<InstanceType[]> {
    if (this.#snapshot === undefined) await this.refresh();
    const snapshot = this.#snapshot;
    if (snapshot === undefined) {
      throw new Error('Azure VM sizes are not known yet: listing Resource SKUs has not succeeded');
    }
    const shape = { maxPods: nodeClass.spec.maxPods, osDiskSizeGB: nodeClass.spec.osDiskSizeGB };
    const cache = this.#deps.unavailableOfferings;
    const key = canonicalJson({
      shape,
      skus: snapshot.generation,
      prices: this.#deps.prices.generation?.() ?? 0,
      unavailable: cache?.generation() ?? 0,
    });
    const name = nodeClass.metadata.name ?? '';
    const memo = this.#memo.get(name);
    if (memo?.key === key) return memo.types;
    const types = snapshot.skus.map(({ fact, zones }) =>
      buildInstanceType(fact, shape, {
        region: this.#deps.region,
        zones,
        prices: this.#deps.prices,
        ...(cache !== undefined ? { unavailable: (o) => cache.isUnavailable(o) } : {}),
      }),
    );
    this.#memo.set(name, { key, types });
    return types;
  }

  async #load(): Promise<void> {
    const { compute, region, logger } = this.#deps;
    try {
      const skus: OfferedSku[] = [];
      const skipped: string[] = [];
      let listed = 0;
      for await (const info of compute.listResourceSkus(region)) {
        listed++;
        const result = offeredSku(info, region);
        if ('sku' in result) skus.push(result.sku);
        else if (info.resourceType === 'virtualMachines') skipped.push(result.skipped);
      }
      skus.sort((a, b) => (a.fact.name < b.fact.name ? -1 : a.fact.name > b.fact.name ? 1 : 0));
      this.#snapshot = { skus, generation: ++this.#generation };
      logger.info(
        {
          region,
          listed,
          vmSizes: skus.length,
          skipped: skipped.length,
          skippedExamples: skipped.slice(0, 5),
        },
        'discovered Azure VM sizes',
      );
    } catch (error) {
      logger.error(
        {
          region,
          error: error instanceof Error ? error.message : String(error),
          keptPrevious: this.#snapshot !== undefined,
        },
        'listing Azure Resource SKUs failed; keeping the previous sizes',
      );
    }
  }
}
