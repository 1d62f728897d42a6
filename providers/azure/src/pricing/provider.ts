import type { Timers } from '@nodewright/core/clock';
import type { AzurePrices } from '../instancetype/build.js';
import type { ProviderLogger } from '../logger.js';
import { PeriodicRefresh } from '../refresh/periodic-refresh.js';
import {
  type LivePrices,
  pricesFromRows,
  type RetailPriceRow,
  type RetailPricesPage,
} from './retail-prices.js';
import { STATIC_PRICES, type StaticPrice } from './static-prices.js';

/** How often the Retail Prices API is read again. */
export const PricesRefreshMs = 12 * 60 * 60 * 1000;
/** Pages read at most per refresh: a guard against a NextPageLink that loops. */
export const MaxPricePages = 1000;

/** Reads one page of the Retail Prices API: the first for a region, then each NextPageLink. */
export interface RetailPricesApi {
  firstPage(region: string): Promise<RetailPricesPage>;
  nextPage(link: string): Promise<RetailPricesPage>;
}

export interface PricingProviderDeps {
  readonly api: RetailPricesApi;
  readonly region: string;
  readonly timers: Timers;
  readonly logger: ProviderLogger;
  readonly refreshIntervalMs?: number;
  /** The fallback table; the shipped one by default. */
  readonly staticPrices?: Readonly<Record<string, Readonly<Record<string, StaticPrice>>>>;
}

/**
 * Prices from the Retail Prices API, every page, read at `start()` and every interval; until
 * the first read succeeds (and for sizes it does not price) the shipped static table for the
 * region answers. A failed refresh is logged and the previous prices kept.
 */
export class PricingProvider implements AzurePrices {
  readonly #deps: PricingProviderDeps;
  #live: LivePrices | undefined;
  #generation = 0;
  readonly #refresh: PeriodicRefresh;

  constructor(deps: PricingProviderDeps) {
    this.#deps = deps;
    this.#refresh = new PeriodicRefresh(deps.timers, deps.refreshIntervalMs ?? PricesRefreshMs, () =>
      this.#load(),
    );
  }

  onDemand(size: string): number | undefined {
    return this.#live?.onDemand.get(size) ?? this.#static(size)?.onDemand;
  }

  spot(size: string): number | undefined {
    return this.#live?.spot.get(size) ?? this.#static(size)?.spot;
  }

  generation(): number {
    return this.#generation;
  }

  /** Whether live prices have been read. */
  get live(): boolean {
    return this.#live !== undefined;
  }

  start(): void {
    this.#refresh.start();
  }

  stop(): void {
    this.#refresh.stop();
  }

  /** Reads every page and swaps the prices in; concurrent calls share one read. */
  refresh(): Promise<void> {
    return this.#refresh.refresh();
  }

  #static(size: string): StaticPrice | undefined {
    return (this.#deps.staticPrices ?? STATIC_PRICES)[this.#deps.region]?.[size];
  }

  async #load(): Promise<void> {
    const { api, region, logger } = this.#deps;
    try {
      const rows: RetailPriceRow[] = [];
      let page = await api.firstPage(region);
      let pages = 1;
      for (;;) {
        rows.push(...(page.Items ?? []));
        const next = page.NextPageLink;
        if (next === undefined || next === null || next === '') break;
        if (pages >= MaxPricePages) throw new Error(`more than ${MaxPricePages} pages of prices; stopped`);
        page = await api.nextPage(next);
        pages++;
      }
      const live = pricesFromRows(rows, region);
      if (live.onDemand.size === 0)
        throw new Error(`no Linux on-demand prices for ${region} in ${rows.length} rows`);
      this.#live = live;
      this.#generation++;
      logger.info(
        { region, pages, rows: rows.length, onDemand: live.onDemand.size, spot: live.spot.size },
        'read Azure retail prices',
      );
    } catch (error) {
      logger.error(
        {
          region,
          error: error instanceof Error ? error.message : String(error),
          keptPrevious: this.#live !== undefined ? 'live prices' : 'the static table',
        },
        'reading Azure retail prices failed; keeping the previous prices',
      );
    }
  }
}
