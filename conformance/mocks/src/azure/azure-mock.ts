import { Agent } from 'node:https';
import type { AddressInfo } from 'node:net';
import { SKU_FACTS, type SkuFact, STATIC_PRICES } from '@nodewright/azure';
import type { MockInstanceSource } from '@nodewright/conformance/harness';
import { SystemTimers, type Timers } from '@nodewright/core/clock';
import type { ArmContext } from './arm/context.js';
import { AsyncOperations } from './arm/operations.js';
import { ArmState } from './arm/state.js';
import { removeVm } from './compute/virtual-machines.js';
import { AzureFaults } from './faults/faults.js';
import { armMockInstanceSource } from './instances/mock-instances.js';
import { type GalleryImageVersion, seedGalleryImages } from './seed/gallery-images.js';
import { nonVmSkus, type ResourceSku, resourceSku, type SkuRestriction } from './seed/resource-skus.js';
import { type RetailPriceItem, retailPriceItems } from './seed/retail-prices.js';
import { createArmServer } from './server/https.js';
import { createMockCertificates } from './server/tls.js';

/** How to start an Azure mock; everything has a default. */
export interface AzureMockOptions {
  readonly subscriptionId?: string;
  /** The node resource group (default `MC_nodewright_nodewright_eastus`). */
  readonly resourceGroup?: string;
  /** eastus (default) or westus2. */
  readonly location?: string;
  /** The VM sizes offered (default: every shipped size). */
  readonly skus?: readonly SkuFact[];
  /** Polls an async operation answers InProgress before it ends (default 1). */
  readonly pollsPerOperation?: number;
  readonly skuPageSize?: number;
  readonly pricePageSize?: number;
  /** Versions per page of a gallery image's version list (default 2, so the seed pages). */
  readonly galleryPageSize?: number;
  /** Paces the instance source's polls (default: system timers). */
  readonly timers?: Timers;
  /**
   * The IP address to listen on (default 127.0.0.1), e.g. the host's address on kind's Docker
   * network; the serving certificate names it, and `endpoint` uses it.
   */
  readonly host?: string;
}

/** A running ARM mock on loopback over TLS, with handles to its state and faults. */
export interface AzureMock {
  /** `https://HOST:port`, for the SDK clients' `endpoint` and the Retail Prices base URL. */
  readonly endpoint: string;
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  readonly location: string;
  /** The CA that signed the mock's certificate. */
  readonly caPem: string;
  /** An HTTPS agent trusting that CA, for the SDK clients' `agent` option. */
  readonly agent: Agent;
  /** A TokenCredential the SDKs accept. */
  readonly credential: { getToken(): Promise<{ token: string; expiresOnTimestamp: number }> };
  readonly state: ArmState;
  readonly faults: AzureFaults;
  readonly operations: AsyncOperations;
  /** The VMs as the kubelet harness boots them into Nodes. */
  readonly instances: MockInstanceSource;
  /** The SKUs the mock lists, restrictions included. */
  skus(): readonly ResourceSku[];
  /** Restricts a size for the subscription: in the whole location, or in some zones. */
  restrictSku(size: string, zones?: readonly string[]): void;
  /**
   * Evicts a running Spot VM as the platform does: it goes (eviction policy Delete), its NICs
   * and OS disk with it where their deleteOption says so, and its name is recorded in
   * `state.evicted`. Throws for a VM that is not a running Spot VM.
   */
  evict(name: string): void;
  /** Publishes a node image version to every AKS image definition of the mock's galleries. */
  publishNodeImage(version: GalleryImageVersion): void;
  close(): Promise<void>;
}

/** Starts an ARM mock (Compute, Network, Retail Prices) on an ephemeral port of `host` (default loopback). */
export async function startAzureMock(options: AzureMockOptions = {}): Promise<AzureMock> {
  const subscriptionId = options.subscriptionId ?? '00000000-0000-0000-0000-000000000000';
  const location = options.location ?? 'eastus';
  const resourceGroup = options.resourceGroup ?? `MC_nodewright_nodewright_${location}`;
  const facts = options.skus ?? SKU_FACTS;
  const restrictions = new Map<string, SkuRestriction[]>();
  const skus = () => [
    ...facts.map((f) => resourceSku(f, location, restrictions.get(f.name) ?? [])),
    ...nonVmSkus(location),
  ];
  const prices: RetailPriceItem[] = Object.entries(STATIC_PRICES).flatMap(([region, table]) =>
    facts.flatMap((f) =>
      table[f.name] === undefined ? [] : retailPriceItems(f.name, region, table[f.name]!),
    ),
  );
  const galleryImages = seedGalleryImages();
  const host = options.host ?? '127.0.0.1';
  const certificates = await createMockCertificates([host]);
  const state = new ArmState();
  const faults = new AzureFaults();
  const pollsPerOperation = options.pollsPerOperation ?? 1;
  const operations = new AsyncOperations(() => pollsPerOperation);
  const ctx: { -readonly [K in keyof ArmContext]: ArmContext[K] } = {
    subscriptionId,
    location,
    origin: '',
    state,
    faults,
    operations,
    skus,
    prices,
    skuPageSize: options.skuPageSize ?? 10,
    pricePageSize: options.pricePageSize ?? 100,
    galleryImages,
    galleryPageSize: options.galleryPageSize ?? 2,
  };
  const server = createArmServer(ctx, certificates);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  ctx.origin = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const agent = new Agent({ ca: certificates.caPem, keepAlive: true });
  return {
    endpoint: ctx.origin,
    subscriptionId,
    resourceGroup,
    location,
    caPem: certificates.caPem,
    agent,
    credential: {
      getToken: async () => ({ token: 'mock-token', expiresOnTimestamp: Date.now() + 3_600_000 }),
    },
    state,
    faults,
    operations,
    instances: armMockInstanceSource({
      state,
      timers: options.timers ?? new SystemTimers(),
      subscriptionId,
    }),
    skus,
    restrictSku(size, zones) {
      const list = restrictions.get(size) ?? [];
      list.push(
        zones === undefined
          ? {
              type: 'Location',
              values: [location],
              restrictionInfo: { locations: [location] },
              reasonCode: 'NotAvailableForSubscription',
            }
          : {
              type: 'Zone',
              values: [location],
              restrictionInfo: { locations: [location], zones },
              reasonCode: 'NotAvailableForSubscription',
            },
      );
      restrictions.set(size, list);
    },
    evict(name) {
      const key = ArmState.key(resourceGroup, name);
      const running = state.running.get(key);
      if (running?.priority !== 'Spot') throw new Error(`azure mock: ${name} is not a running Spot VM`);
      state.evicted.push(name);
      removeVm(ctx, resourceGroup, name);
    },
    publishNodeImage(version) {
      for (const versions of galleryImages.values()) versions.push(version);
    },
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
