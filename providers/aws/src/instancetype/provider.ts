import type {
  DescribeInstanceTypeOfferingsCommandInput,
  DescribeInstanceTypesCommandInput,
} from '@aws-sdk/client-ec2';
import { canonicalJson } from '@nodewright/core/apis';
import type { Cancel, Clock, Timers } from '@nodewright/core/clock';
import type { InstanceType, Offering, UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import { type EC2NodeClass, resolvedAmiFamily } from '../apis/index.js';
import type { AwsInstanceTypes, AwsPrices } from '../ports.js';
import type { Ec2Api } from '../sdk/index.js';
import { type InstanceTypeShape, instanceTypeOfferings, instanceTypeShape } from './build.js';
import type { NodeShapeSettings } from './capacity.js';
import { factsFromInstanceTypeInfo, type InstanceTypeFacts } from './facts.js';
import type { ProviderLogger } from './logger.js';
import { allPages } from './pages.js';
import type { ZoneInfo } from './requirements.js';

/** How often DescribeInstanceTypes/Offerings are read again (upstream: 12 h). */
export const InstanceTypesRefreshMs = 12 * 60 * 60 * 1000;

/** The DescribeInstanceTypes filters: HVM types on the two architectures Kubernetes nodes run. */
export const DescribeInstanceTypesInput: DescribeInstanceTypesCommandInput = {
  Filters: [
    { Name: 'supported-virtualization-type', Values: ['hvm'] },
    { Name: 'processor-info.supported-architecture', Values: ['x86_64', 'arm64'] },
  ],
};
export const DescribeInstanceTypeOfferingsInput: DescribeInstanceTypeOfferingsCommandInput = {
  LocationType: 'availability-zone',
};

/** Prices that can say when they changed, so cached instance types are rebuilt. */
export interface VersionedPrices extends AwsPrices {
  generation?(): number;
}

export interface InstanceTypeProviderDeps {
  readonly ec2: Ec2Api;
  readonly prices: VersionedPrices;
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: ProviderLogger;
  readonly unavailableOfferings?: UnavailableOfferingsCache;
  /** Adds `topology.kubernetes.io/region` to every type when known. */
  readonly region?: string;
  readonly refreshIntervalMs?: number;
}

interface Snapshot {
  readonly facts: readonly InstanceTypeFacts[];
  /** Instance type -> zones it is offered in. */
  readonly zones: ReadonlyMap<string, ReadonlySet<string>>;
  readonly generation: number;
}

interface Shaped {
  readonly facts: InstanceTypeFacts;
  readonly zones: readonly ZoneInfo[];
  readonly shape: InstanceTypeShape;
}

/** Per NodeClass: shapes until the facts or its settings change, offerings until prices or availability do. */
interface Memo {
  readonly shapeKey: string;
  readonly offeringKey: string;
  readonly shapes: readonly Shaped[];
  readonly types: InstanceType[];
}

/**
 * EC2 instance types for EC2NodeClasses (AwsInstanceTypes). DescribeInstanceTypes (HVM,
 * x86_64/arm64) and DescribeInstanceTypeOfferings (per availability zone), all pages, are read at
 * `start()` and every 12 h on the injected Timers; a failed refresh is logged and the previous
 * facts kept. `forNodeClass` never calls EC2 once facts are loaded (the first call waits for the
 * first load): it builds types whose zones are the offering zones within the NodeClass's
 * resolved subnets. Requirements, capacity and overhead are memoised until the facts or the
 * NodeClass's relevant fields change; offerings until the prices or the unavailable offerings do. Types offered in none of its zones are left out.
 */
export class InstanceTypeProvider implements AwsInstanceTypes {
  readonly #deps: InstanceTypeProviderDeps;
  #snapshot: Snapshot | undefined;
  #loading: Promise<void> | undefined;
  #cancel: Cancel | undefined;
  #generation = 0;
  readonly #memo = new Map<string, Memo>();

  constructor(deps: InstanceTypeProviderDeps) {
    this.#deps = deps;
  }

  /** Loads now and schedules a refresh every interval. Idempotent. */
  start(): void {
    if (this.#cancel !== undefined) return;
    void this.refresh();
    this.#schedule();
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  /** When the facts were last loaded, ms since epoch; undefined before the first success. */
  lastRefreshAt: number | undefined;

  /**
   * Reads both APIs, every page, and swaps the facts in; on failure logs and keeps the previous
   * ones. Concurrent calls share one read.
   */
  refresh(): Promise<void> {
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  /** Resolves when no refresh is running (for tests and simulations driving ManualTimers). */
  async idle(): Promise<void> {
    await this.#loading;
  }

  async forNodeClass(nodeClass: EC2NodeClass): Promise<InstanceType[]> {
    if (this.#snapshot === undefined) await this.refresh();
    const snapshot = this.#snapshot;
    if (snapshot === undefined) {
      throw new Error('EC2 instance types are not known yet: DescribeInstanceTypes has not succeeded');
    }
    const settings: NodeShapeSettings = {
      amiFamily: resolvedAmiFamily(nodeClass.spec),
      kubelet: nodeClass.spec.kubelet,
      blockDeviceMappings: nodeClass.spec.blockDeviceMappings,
      instanceStorePolicy: nodeClass.spec.instanceStorePolicy,
    };
    const subnetZones = new Map<string, ZoneInfo>();
    for (const s of nodeClass.status?.subnets ?? []) {
      if (!subnetZones.has(s.zone)) subnetZones.set(s.zone, { zone: s.zone, zoneID: s.zoneID });
    }
    const shapeKey = canonicalJson({
      settings,
      zones: [...subnetZones.values()],
      facts: snapshot.generation,
    });
    const offeringKey = canonicalJson({
      prices: this.#deps.prices.generation?.(),
      unavailable: this.#deps.unavailableOfferings?.generation(),
    });
    const name = nodeClass.metadata.name ?? '';
    let memo = this.#memo.get(name);
    if (memo?.shapeKey === shapeKey && memo.offeringKey === offeringKey) return memo.types;
    if (memo?.shapeKey !== shapeKey) {
      const shapes: Shaped[] = [];
      for (const facts of snapshot.facts) {
        const offered = snapshot.zones.get(facts.name);
        const zones = [...subnetZones.values()].filter((z) => offered?.has(z.zone));
        if (zones.length === 0) continue;
        shapes.push({ facts, zones, shape: instanceTypeShape(facts, settings, zones, this.#deps.region) });
      }
      memo = { shapeKey, offeringKey: '', shapes, types: [] };
    }
    const cache = this.#deps.unavailableOfferings;
    const templates = new Map<string, Offering>();
    const types = memo.shapes.map(({ facts, zones, shape }) => ({
      ...shape,
      offerings: instanceTypeOfferings(facts, {
        zones,
        prices: this.#deps.prices,
        templates,
        ...(cache !== undefined ? { unavailable: (o) => cache.isUnavailable(o) } : {}),
      }),
    }));
    this.#memo.set(name, { ...memo, offeringKey, types });
    return types;
  }

  #schedule(): void {
    const interval = this.#deps.refreshIntervalMs ?? InstanceTypesRefreshMs;
    this.#cancel = this.#deps.timers.after(interval, () => {
      void this.refresh();
      this.#schedule();
    });
  }

  async #load(): Promise<void> {
    const { ec2, logger } = this.#deps;
    try {
      const [infos, offerings] = await Promise.all([
        allPages(
          'DescribeInstanceTypes',
          (i) => ec2.describeInstanceTypes(i),
          DescribeInstanceTypesInput,
          (o) => o.InstanceTypes,
        ),
        allPages(
          'DescribeInstanceTypeOfferings',
          (i) => ec2.describeInstanceTypeOfferings(i),
          DescribeInstanceTypeOfferingsInput,
          (o) => o.InstanceTypeOfferings,
        ),
      ]);
      const facts: InstanceTypeFacts[] = [];
      const skipped: string[] = [];
      for (const info of infos) {
        const result = factsFromInstanceTypeInfo(info);
        if ('facts' in result) facts.push(result.facts);
        else skipped.push(result.skipped);
      }
      facts.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const zones = new Map<string, Set<string>>();
      for (const o of offerings) {
        if (o.InstanceType === undefined || o.Location === undefined) continue;
        const set = zones.get(o.InstanceType) ?? new Set<string>();
        set.add(o.Location);
        zones.set(o.InstanceType, set);
      }
      this.#snapshot = { facts, zones, generation: ++this.#generation };
      this.lastRefreshAt = this.#deps.clock.now();
      logger.info(
        {
          instanceTypes: facts.length,
          offerings: offerings.length,
          skipped: skipped.length,
          skippedExamples: skipped.slice(0, 5),
        },
        'discovered EC2 instance types and offerings',
      );
    } catch (error) {
      logger.error(
        {
          error: error instanceof Error ? error.message : String(error),
          keptPrevious: this.#snapshot !== undefined,
        },
        'refreshing EC2 instance types failed; keeping the previous ones',
      );
    }
  }
}
