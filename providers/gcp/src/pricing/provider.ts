import type { Timers } from '@nodewright/core/clock';
import type { GcpLogger } from '../refresh/logger.js';
import { Periodic } from '../refresh/periodic.js';
import type { BillingCatalogApi } from '../sdk/compute-api.js';
import type { ComponentPrices } from './components.js';
import { type BillingSku, ComputeServiceId, componentPricesFromSkus } from './skus.js';
import { StaticComponentPrices } from './static-prices.js';

/** `over`'s entries over `under`'s, field by field; an undefined field keeps `under`'s value. */
function overlay<T extends object>(
  under: Readonly<Record<string, T>>,
  over: Readonly<Record<string, T>>,
): Record<string, T> {
  const out: Record<string, T> = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const defined = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
    out[key] = { ...under[key], ...defined } as T;
  }
  return out;
}

/** How often the billing catalog is read again. */
export const PricesRefreshMs = 12 * 60 * 60 * 1000;

export interface GcePricingProviderDeps {
  readonly billing: BillingCatalogApi;
  readonly region: string;
  readonly timers: Timers;
  readonly logger: GcpLogger;
  readonly refreshIntervalMs?: number;
}

/**
 * The region's component prices. Read from the Cloud Billing Catalog (Compute Engine's SKUs,
 * every page) at `start()` and every 12 h; until a read succeeds, and for any family or GPU a
 * price a read lacks (a family, a GPU, a spot component), the shipped static table answers. A failed read is logged and the previous prices
 * kept.
 */
export class GcePricingProvider {
  readonly #deps: GcePricingProviderDeps;
  readonly #loop: Periodic;
  #live: ComponentPrices | undefined;
  #generation = 0;

  constructor(deps: GcePricingProviderDeps) {
    this.#deps = deps;
    this.#loop = new Periodic(deps.timers, deps.refreshIntervalMs ?? PricesRefreshMs, () => this.refresh());
  }

  start(): void {
    this.#loop.start();
  }

  stop(): void {
    this.#loop.stop();
  }

  /** Resolves once the first read has finished (or failed). */
  ready(): Promise<void> {
    return this.#loop.ready();
  }

  /** Changes whenever the prices change. */
  generation(): number {
    return this.#generation;
  }

  /** Whether the billing catalog has been read. */
  get live(): boolean {
    return this.#live !== undefined;
  }

  /** The live prices over the static ones, family by family. */
  components(): ComponentPrices {
    const fallback = StaticComponentPrices[this.#deps.region] ?? { families: {}, gpus: {} };
    const live = this.#live;
    if (live === undefined) return fallback;
    return { families: overlay(fallback.families, live.families), gpus: overlay(fallback.gpus, live.gpus) };
  }

  /** Reads every page of the catalog; keeps the previous prices when that fails or finds none. */
  async refresh(): Promise<void> {
    const skus: BillingSku[] = [];
    try {
      let token: string | undefined;
      let pages = 0;
      do {
        const page = await this.#deps.billing.listSkus(ComputeServiceId, token);
        skus.push(...page.skus);
        token = page.nextPageToken;
        pages++;
      } while (token !== undefined && token !== '');
      const prices = componentPricesFromSkus(skus, this.#deps.region);
      const families = Object.keys(prices.families).length;
      if (families === 0) {
        this.#deps.logger.warn(
          { region: this.#deps.region, skus: skus.length },
          'the billing catalog priced no machine family in the region; keeping the previous prices',
        );
        return;
      }
      this.#live = prices;
      this.#generation++;
      this.#deps.logger.info(
        { region: this.#deps.region, skus: skus.length, pages, families },
        'read compute prices from the billing catalog',
      );
    } catch (err) {
      this.#deps.logger.error(
        { err, region: this.#deps.region },
        'could not read the billing catalog; keeping the previous prices',
      );
    }
  }
}
