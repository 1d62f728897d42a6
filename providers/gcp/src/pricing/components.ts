import type { GcePrices } from '../instancetype/build.js';
import type { GceMachineTypeFacts } from '../instancetype/facts.js';
import { parseMachineTypeName } from '../instancetype/labels.js';

/** Hourly USD per vCPU and per GiB of one family in one region, on-demand and spot. */
export interface FamilyPrices {
  readonly core: number;
  readonly ram: number;
  readonly spotCore?: number | undefined;
  readonly spotRam?: number | undefined;
}

/** Hourly USD per GPU, on-demand and spot. */
export interface GpuPrices {
  readonly onDemand: number;
  readonly spot?: number | undefined;
}

/** The component prices of one region: what a machine type's price is composed from. */
export interface ComponentPrices {
  readonly families: Readonly<Record<string, FamilyPrices>>;
  /** Keyed by GCE's accelerator type (`nvidia-l4`). */
  readonly gpus: Readonly<Record<string, GpuPrices>>;
}

/**
 * The share of a vCPU E2's shared-core types are billed for: GCE bills e2-micro as 0.25 vCPU,
 * e2-small as 0.5 and e2-medium as 1, with their full memory.
 */
export const SharedCoreBilledVcpus: Readonly<Record<string, number>> = {
  'e2-micro': 0.25,
  'e2-small': 0.5,
  'e2-medium': 1,
};

const round6 = (usd: number) => Math.round(usd * 1e6) / 1e6;

/**
 * The hourly price of a machine type: billed vCPUs x the family's core price + GiB x its RAM
 * price + GPUs x the GPU's price. Undefined when any component is unknown (a spot price is never
 * guessed from on-demand), so the offering is not launchable.
 */
export function machineTypePrice(
  facts: GceMachineTypeFacts,
  prices: ComponentPrices,
  capacityType: 'on-demand' | 'spot',
): number | undefined {
  const family = prices.families[parseMachineTypeName(facts.name).family];
  if (family === undefined) return undefined;
  const core = capacityType === 'spot' ? family.spotCore : family.core;
  const ram = capacityType === 'spot' ? family.spotRam : family.ram;
  if (core === undefined || ram === undefined) return undefined;
  let gpu = 0;
  if (facts.gpu !== undefined) {
    const g = prices.gpus[facts.gpu.name];
    const each = capacityType === 'spot' ? g?.spot : g?.onDemand;
    if (each === undefined) return undefined;
    gpu = each * facts.gpu.count;
  }
  const vcpus = facts.sharedCpu ? (SharedCoreBilledVcpus[facts.name] ?? facts.vcpus) : facts.vcpus;
  return round6(vcpus * core + (facts.memoryMiB / 1024) * ram + gpu);
}

/** Per-type prices for these machine types from the component prices. */
export function composedPrices(facts: readonly GceMachineTypeFacts[], prices: ComponentPrices): GcePrices {
  const onDemand = new Map<string, number>();
  const spot = new Map<string, number>();
  for (const f of facts) {
    const od = machineTypePrice(f, prices, 'on-demand');
    const sp = machineTypePrice(f, prices, 'spot');
    if (od !== undefined) onDemand.set(f.name, od);
    if (sp !== undefined) spot.set(f.name, sp);
  }
  return { onDemand: (t) => onDemand.get(t), spot: (t) => spot.get(t) };
}
