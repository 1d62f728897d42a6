import {
  type CatalogInstanceType,
  type CatalogOffering,
  type InstanceTypeCatalog,
  InstanceTypeCatalogApiVersion,
  InstanceTypeCatalogKind,
} from '@nodewright/core/apis';
import { syntheticOverhead } from './overhead.js';

/** Label keys of Karpenter's KWOK provider, so NodePools written for it select the same types. */
export const KwokLabels = {
  InstanceFamily: 'karpenter.kwok.sh/instance-family',
  InstanceSize: 'karpenter.kwok.sh/instance-size',
  InstanceCpu: 'karpenter.kwok.sh/instance-cpu',
  InstanceMemory: 'karpenter.kwok.sh/instance-memory',
  /** nodewright's addition, set only when a catalog has several generations. */
  InstanceGeneration: 'karpenter.kwok.sh/instance-generation',
} as const;

/**
 * The KWOK labels well known to the solver (Karpenter's KWOK provider registers family, size,
 * cpu and memory; generation is nodewright's): what `KwokCloudProvider.wellKnownLabels()` and
 * the generated catalog declare. A catalog without generations has no type carrying
 * instance-generation, so every type counts as `DoesNotExist` for it.
 */
export const KwokWellKnownLabels: ReadonlySet<string> = new Set(Object.values(KwokLabels));

/** A family: how much memory each vCPU comes with. */
export interface KwokFamily {
  readonly name: string;
  readonly memoryGiPerCpu: number;
}

/**
 * The dimensions of a synthetic catalog. The defaults reproduce Karpenter's KWOK provider:
 * 12 sizes x families c/s/m (2/4/8 GiB per vCPU) x amd64/arm64 x linux/windows = 144 types,
 * each offered spot and on-demand in test-zone-a..d.
 */
export interface KwokCatalogOptions {
  readonly name?: string;
  readonly cpus?: readonly number[];
  readonly families?: readonly KwokFamily[];
  readonly architectures?: readonly string[];
  readonly operatingSystems?: readonly string[];
  readonly zones?: readonly string[];
  /**
   * Generations, newest last; each newer one is `generationDiscount` cheaper than the one before.
   * Absent (the default): one unnamed generation, as KWOK has.
   */
  readonly generations?: readonly number[];
  readonly generationDiscount?: number;
  /** Price multiplier per architecture (e.g. arm64 0.8); 1 for those not listed. */
  readonly architecturePriceFactor?: Readonly<Record<string, number>>;
  /** Spot price as a fraction of on-demand. */
  readonly spotFactor?: number;
}

export const KwokCpus: readonly number[] = [1, 2, 4, 8, 16, 32, 48, 64, 96, 128, 192, 256];
export const KwokFamilies: readonly KwokFamily[] = [
  { name: 'c', memoryGiPerCpu: 2 },
  { name: 's', memoryGiPerCpu: 4 },
  { name: 'm', memoryGiPerCpu: 8 },
];
export const KwokZones: readonly string[] = ['test-zone-a', 'test-zone-b', 'test-zone-c', 'test-zone-d'];

/** KWOK's pricing: 0.025 per vCPU-hour plus 0.001 per GB-hour (GB = 10^9 bytes). */
export function onDemandPrice(cpus: number, memoryGi: number): number {
  return 0.025 * cpus + (0.001 * memoryGi * 2 ** 30) / 1e9;
}

/** KWOK's pod density: 16 pods per vCPU, at most 1024. */
export function maxPods(cpus: number): number {
  return Math.min(cpus * 16, 1024);
}

/** Every node gets the same disk, as in KWOK. */
export const EphemeralStorageGi = 20;

/** Prices are kept to six decimals so output stays readable; the order of types is unchanged. */
function roundPrice(price: number): number {
  return Math.round(price * 1e6) / 1e6;
}

/**
 * A synthetic InstanceTypeCatalog shaped like Karpenter's KWOK provider's: names
 * `<family>-<cpu>x-<arch>-<os>` (`c-4x-amd64-linux`; with generations `c5-4x-amd64-linux`),
 * cpu/memory/pods/ephemeral-storage capacity, plausible kubelet overhead (see overhead.ts), and
 * one spot and one on-demand offering per zone, spot at `spotFactor` of on-demand. Deviation
 * from KWOK: the instance-memory label is MiB as an integer (KWOK writes `8Gi`), so Gt/Lt work.
 */
export function generateKwokCatalog(options: KwokCatalogOptions = {}): InstanceTypeCatalog {
  const generations = options.generations ?? [undefined];
  const discount = options.generationDiscount ?? 0.04;
  const spotFactor = options.spotFactor ?? 0.7;
  const instanceTypes: CatalogInstanceType[] = [];
  for (const [generationIndex, generation] of generations.entries()) {
    const generationFactor = (1 - discount) ** generationIndex;
    for (const cpus of options.cpus ?? KwokCpus) {
      for (const family of options.families ?? KwokFamilies) {
        for (const os of options.operatingSystems ?? ['linux', 'windows']) {
          for (const arch of options.architectures ?? ['amd64', 'arm64']) {
            const memoryGi = cpus * family.memoryGiPerCpu;
            const pods = maxPods(cpus);
            const familyName = generation === undefined ? family.name : `${family.name}${generation}`;
            const price =
              onDemandPrice(cpus, memoryGi) *
              generationFactor *
              (options.architecturePriceFactor?.[arch] ?? 1);
            instanceTypes.push({
              name: `${familyName}-${cpus}x-${arch}-${os}`,
              labels: {
                'kubernetes.io/arch': arch,
                'kubernetes.io/os': os,
                [KwokLabels.InstanceFamily]: familyName,
                [KwokLabels.InstanceSize]: `${cpus}x`,
                [KwokLabels.InstanceCpu]: String(cpus),
                [KwokLabels.InstanceMemory]: String(memoryGi * 1024),
                ...(generation === undefined ? {} : { [KwokLabels.InstanceGeneration]: String(generation) }),
              },
              capacity: {
                cpu: String(cpus),
                memory: `${memoryGi}Gi`,
                pods: String(pods),
                'ephemeral-storage': `${EphemeralStorageGi}Gi`,
              },
              overhead: syntheticOverhead(cpus, pods, EphemeralStorageGi),
              offerings: (options.zones ?? KwokZones).flatMap((zone): CatalogOffering[] => [
                { zone, capacityType: 'spot', price: roundPrice(price * spotFactor), available: true },
                { zone, capacityType: 'on-demand', price: roundPrice(price), available: true },
              ]),
            });
          }
        }
      }
    }
  }
  return {
    apiVersion: InstanceTypeCatalogApiVersion,
    kind: InstanceTypeCatalogKind,
    metadata: { name: options.name ?? 'kwok' },
    wellKnownLabels: [...KwokWellKnownLabels],
    instanceTypes,
  };
}
