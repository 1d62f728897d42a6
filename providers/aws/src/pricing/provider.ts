import type { SpotPrice } from '@aws-sdk/client-ec2';
import type { GetProductsCommandInput } from '@aws-sdk/client-pricing';
import type { Cancel, Clock, Timers } from '@nodewright/core/clock';
import type { ProviderLogger } from '../instancetype/logger.js';
import { allPages } from '../instancetype/pages.js';
import type { VersionedPrices } from '../instancetype/provider.js';
import type { Ec2Api, PricingApi } from '../sdk/index.js';
import { parsePriceListItem } from './price-list.js';
import { staticOnDemandPrices } from './static-prices.js';

/** How often both price sources are read again (upstream: 12 h). */
export const PricesRefreshMs = 12 * 60 * 60 * 1000;

/** The GetProducts request for a region's Linux, shared-tenancy, on-demand instance prices. */
export function onDemandProductsInput(region: string): GetProductsCommandInput {
  const term = (Field: string, Value: string) => ({ Type: 'TERM_MATCH' as const, Field, Value });
  return {
    ServiceCode: 'AmazonEC2',
    FormatVersion: 'aws_v1',
    Filters: [
      term('regionCode', region),
      term('operatingSystem', 'Linux'),
      term('tenancy', 'Shared'),
      term('capacitystatus', 'Used'),
      term('preInstalledSw', 'NA'),
    ],
  };
}

export interface PricingProviderDeps {
  readonly pricing: PricingApi;
  readonly ec2: Ec2Api;
  readonly region: string;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: ProviderLogger;
  readonly refreshIntervalMs?: number;
}

const spotKey = (instanceType: string, zone: string) => `${instanceType}\u0000${zone}`;

/**
 * EC2 prices (AwsPrices). On-demand comes from the Pricing API (GetProducts, every page, Linux
 * shared tenancy in the region) and spot from DescribeSpotPriceHistory (Linux/UNIX from now,
 * every page, newest per type and zone); both are read at `start()` and every 12 h on the
 * injected Timers. Until the first on-demand read succeeds the shipped static table answers;
 * until the first spot read succeeds spot equals on-demand. A failed or empty read is logged and
 * the previous prices kept. `generation()` changes whenever prices change.
 */
export class PricingProvider implements VersionedPrices {
  readonly #deps: PricingProviderDeps;
  #onDemand: ReadonlyMap<string, number>;
  #spot: ReadonlyMap<string, number> | undefined;
  #generation = 0;
  #cancel: Cancel | undefined;
  #loading: Promise<void> | undefined;
  /** Whether on-demand prices come from the API (true) or the static table. */
  onDemandLive = false;

  constructor(deps: PricingProviderDeps) {
    this.#deps = deps;
    const table = staticOnDemandPrices(deps.region);
    if (!table.exact) {
      deps.logger.warn(
        { region: deps.region },
        'no static on-demand prices for this region; using the us-east-1 table until the Pricing API answers',
      );
    }
    this.#onDemand = new Map(Object.entries(table.prices));
  }

  onDemand(instanceType: string): number | undefined {
    return this.#onDemand.get(instanceType);
  }

  spot(instanceType: string, zone: string): number | undefined {
    if (this.#spot === undefined) return this.onDemand(instanceType);
    return this.#spot.get(spotKey(instanceType, zone));
  }

  generation(): number {
    return this.#generation;
  }

  /** Reads both sources now and every interval after. Idempotent. */
  start(): void {
    if (this.#cancel !== undefined) return;
    void this.refresh();
    this.#schedule();
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  /** Reads both sources; concurrent calls share one read. Never rejects (failures are logged). */
  refresh(): Promise<void> {
    this.#loading ??= Promise.all([this.refreshOnDemand(), this.refreshSpot()])
      .then(() => undefined)
      .finally(() => {
        this.#loading = undefined;
      });
    return this.#loading;
  }

  /** Resolves when no refresh is running. */
  async idle(): Promise<void> {
    await this.#loading;
  }

  /** Reads on-demand prices; keeps the previous ones on failure or an empty answer. */
  async refreshOnDemand(): Promise<void> {
    const { pricing, region, logger } = this.#deps;
    try {
      const items = await allPages(
        'GetProducts',
        (i) => pricing.getProducts(i),
        onDemandProductsInput(region),
        (o) => o.PriceList,
      );
      const prices = new Map<string, number>();
      const skipped: string[] = [];
      for (const item of items) {
        // The SDK hands items over as LazyJsonString objects, whose JSON.stringify is a quoted
        // string; String() gives the document itself.
        const result = parsePriceListItem(String(item));
        if ('entry' in result) {
          if (!prices.has(result.entry.instanceType))
            prices.set(result.entry.instanceType, result.entry.price);
        } else skipped.push(result.skipped);
      }
      if (prices.size === 0) {
        logger.error(
          { region, items: items.length, skippedExamples: skipped.slice(0, 5) },
          'the Pricing API returned no on-demand prices; keeping the previous ones',
        );
        return;
      }
      this.#onDemand = prices;
      this.onDemandLive = true;
      this.#generation++;
      logger.info(
        { region, instanceTypes: prices.size, skipped: skipped.length },
        'updated on-demand prices',
      );
    } catch (error) {
      logger.error(
        { region, error: error instanceof Error ? error.message : String(error), live: this.onDemandLive },
        'reading on-demand prices failed; keeping the previous ones',
      );
    }
  }

  /** Reads spot prices; keeps the previous ones (or on-demand as spot) on failure or an empty answer. */
  async refreshSpot(): Promise<void> {
    const { ec2, region, logger, clock } = this.#deps;
    try {
      const history = await allPages(
        'DescribeSpotPriceHistory',
        (i) => ec2.describeSpotPriceHistory(i),
        { ProductDescriptions: ['Linux/UNIX'], StartTime: new Date(clock.now()) },
        (o) => o.SpotPriceHistory,
      );
      const newest = new Map<string, { price: number; at: number }>();
      for (const entry of history as SpotPrice[]) {
        const price = Number.parseFloat(entry.SpotPrice ?? '');
        if (
          entry.InstanceType === undefined ||
          entry.AvailabilityZone === undefined ||
          !Number.isFinite(price)
        ) {
          continue;
        }
        const key = spotKey(entry.InstanceType, entry.AvailabilityZone);
        const at = entry.Timestamp?.getTime() ?? 0;
        const previous = newest.get(key);
        if (previous === undefined || at > previous.at) newest.set(key, { price, at });
      }
      if (newest.size === 0) {
        logger.error(
          { region },
          'DescribeSpotPriceHistory returned no prices; keeping the previous spot prices',
        );
        return;
      }
      this.#spot = new Map([...newest].map(([k, v]) => [k, v.price]));
      this.#generation++;
      logger.info({ region, offerings: newest.size }, 'updated spot prices');
    } catch (error) {
      logger.error(
        {
          region,
          error: error instanceof Error ? error.message : String(error),
          live: this.#spot !== undefined,
        },
        'reading spot prices failed; keeping the previous ones',
      );
    }
  }

  #schedule(): void {
    this.#cancel = this.#deps.timers.after(this.#deps.refreshIntervalMs ?? PricesRefreshMs, () => {
      void this.refresh();
      this.#schedule();
    });
  }
}
