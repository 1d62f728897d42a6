import type { AzureFaults } from '../faults/faults.js';
import type { GalleryImageVersion } from '../seed/gallery-images.js';
import type { ResourceSku } from '../seed/resource-skus.js';
import type { RetailPriceItem } from '../seed/retail-prices.js';
import type { AsyncOperations } from './operations.js';
import type { ArmState } from './state.js';

/** Everything a handler needs: the request, the mock's state, faults and seed. */
export interface ArmContext {
  readonly subscriptionId: string;
  readonly location: string;
  /** `https://host:port`, for the URLs replies carry (nextLink, Azure-AsyncOperation). */
  readonly origin: string;
  readonly state: ArmState;
  readonly faults: AzureFaults;
  readonly operations: AsyncOperations;
  readonly skus: () => readonly ResourceSku[];
  readonly prices: readonly RetailPriceItem[];
  /** Versions of each community gallery image definition, by `galleryImageKey`. */
  readonly galleryImages: ReadonlyMap<string, readonly GalleryImageVersion[]>;
  /** Versions per page of a gallery image's version list. */
  readonly galleryPageSize: number;
  /** Resource SKUs per page of the SKU list. */
  readonly skuPageSize: number;
  /** Items per page of the Retail Prices API. */
  readonly pricePageSize: number;
}

/** A handler's reply. */
export interface ArmReply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The parts of a request a handler reads. */
export interface ArmRequest {
  readonly method: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
}
