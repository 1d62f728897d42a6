import { CapacityTypes, Labels } from '@nodewright/core/apis';
import {
  type InstanceType,
  newInstanceType,
  newOffering,
  type Offering,
} from '@nodewright/core/cloudprovider';
import {
  Quantity,
  Requirement,
  Requirements,
  type ResourceList,
  ResourceNames,
} from '@nodewright/core/scheduling';
import type { SkuFact } from '../catalog/sku-facts.js';
import { AzureLabels, AzureResources } from './labels.js';
import { aksOverhead, memoryCapacityMiB } from './overhead.js';
import { gpuManufacturer, gpuModel, parseSkuName } from './sku-name.js';
import { zoneLabel } from './zones.js';

/** Hourly USD prices of Linux VMs in one region; undefined where no price is known. */
export interface AzurePrices {
  onDemand(size: string): number | undefined;
  spot(size: string): number | undefined;
  /** Changes whenever the prices may have changed (cached instance types are rebuilt). */
  generation?(): number;
}

/** The AKSNodeClass fields that shape capacity. */
export interface NodeShape {
  /** Pods per node; AKS's Azure CNI overlay default (250) when the NodeClass does not set maxPods. */
  readonly maxPods?: number | undefined;
  readonly osDiskSizeGB?: number | undefined;
}

export const DefaultMaxPods = 250;
export const DefaultOsDiskSizeGB = 128;

/** Where and at what price a size is offered. */
export interface OfferingContext {
  readonly region: string;
  /** ARM zones (`1`..`3`) the size may launch in; empty for a non-zonal region. */
  readonly zones: readonly string[];
  readonly prices: AzurePrices;
  readonly unavailable?: (o: { capacityType: string; instanceType: string; zone: string }) => boolean;
}

const inOrAbsent = (key: string, value: string | number | boolean | undefined): Requirement =>
  value === undefined || value === ''
    ? Requirement.create(key, 'DoesNotExist')
    : Requirement.create(key, 'In', [String(value)]);

/** The GPU model and count of a size, its name deciding the model where the SKU does not. */
function gpus(fact: SkuFact): { model: string | undefined; count: number } | undefined {
  if (fact.gpus === undefined || fact.gpus.count === 0) return undefined;
  return { model: fact.gpus.name || gpuModel(fact.name), count: fact.gpus.count };
}

/** The capacity types a size is sold as: spot only where the SKU is LowPriorityCapable. */
export function capacityTypes(fact: SkuFact): string[] {
  return fact.lowPriorityCapable ? [CapacityTypes.Spot, CapacityTypes.OnDemand] : [CapacityTypes.OnDemand];
}

/** The well-known and `karpenter.azure.com/sku-*` requirements of a size offered in `zones`. */
export function skuRequirements(fact: SkuFact, region: string, zones: readonly string[]): Requirements {
  const parts = parseSkuName(fact.name);
  const gpu = gpus(fact);
  return new Requirements([
    Requirement.create(Labels.InstanceType, 'In', [fact.name]),
    Requirement.create(Labels.Arch, 'In', [fact.architecture === 'Arm64' ? 'arm64' : 'amd64']),
    Requirement.create(Labels.OS, 'In', ['linux']),
    Requirement.create(Labels.Region, 'In', [region]),
    Requirement.create(
      Labels.Zone,
      'In',
      zones.length === 0 ? [zoneLabel(region, undefined)] : zones.map((z) => zoneLabel(region, z)),
    ),
    Requirement.create(Labels.CapacityType, 'In', capacityTypes(fact)),
    Requirement.create(Labels.WindowsBuild, 'DoesNotExist'),
    Requirement.create(AzureLabels.SkuName, 'In', [fact.name]),
    inOrAbsent(AzureLabels.SkuFamily, parts?.family),
    inOrAbsent(AzureLabels.SkuSeries, parts?.series),
    inOrAbsent(AzureLabels.SkuVersion, parts?.version),
    Requirement.create(AzureLabels.SkuCpu, 'In', [String(fact.vCPUs)]),
    Requirement.create(AzureLabels.SkuMemory, 'In', [String(Math.round(fact.memoryGB * 1024))]),
    inOrAbsent(AzureLabels.SkuGpuName, gpu?.model),
    inOrAbsent(AzureLabels.SkuGpuManufacturer, gpu?.model && gpuManufacturer(gpu.model)),
    inOrAbsent(AzureLabels.SkuGpuCount, gpu?.count),
    Requirement.create(AzureLabels.SkuNetworkingAccelerated, 'In', [String(fact.acceleratedNetworking)]),
    Requirement.create(AzureLabels.SkuStoragePremiumCapable, 'In', [String(fact.premiumIO)]),
    Requirement.create(AzureLabels.SkuHyperVGeneration, 'In', [
      fact.hyperVGenerations === 'V2' ? 'V2' : 'V1',
    ]),
    Requirement.create(AzureLabels.SkuEncryptionAtHostSupported, 'In', [String(fact.encryptionAtHost)]),
  ]);
}

/** cpu, memory (less VM overhead), pods, ephemeral storage (the OS disk) and GPUs of a node. */
export function skuCapacity(fact: SkuFact, shape: NodeShape): ResourceList {
  const capacity = new Map<string, Quantity>([
    [ResourceNames.CPU, Quantity.parse(String(fact.vCPUs))],
    [ResourceNames.Memory, Quantity.parse(`${memoryCapacityMiB(fact.memoryGB)}Mi`)],
    [ResourceNames.Pods, Quantity.parse(String(shape.maxPods ?? DefaultMaxPods))],
    [ResourceNames.EphemeralStorage, Quantity.parse(`${shape.osDiskSizeGB ?? DefaultOsDiskSizeGB}G`)],
  ]);
  const gpu = gpus(fact);
  if (gpu !== undefined) {
    const resource =
      gpu.model !== undefined && gpuManufacturer(gpu.model) === 'amd'
        ? AzureResources.AmdGpu
        : AzureResources.NvidiaGpu;
    capacity.set(resource, Quantity.parse(String(gpu.count)));
  }
  return capacity;
}

/**
 * One offering per zone and capacity type, priced from `prices`: without a price an offering is
 * not launchable (price +Infinity), nor is one the unavailable-offerings cache lists.
 */
export function skuOfferings(fact: SkuFact, context: OfferingContext): Offering[] {
  const zones = context.zones.length === 0 ? [undefined] : context.zones;
  return zones.flatMap((z) =>
    capacityTypes(fact).map((capacityType) => {
      const zone = zoneLabel(context.region, z);
      const price =
        capacityType === CapacityTypes.Spot
          ? context.prices.spot(fact.name)
          : context.prices.onDemand(fact.name);
      const refused = context.unavailable?.({ capacityType, instanceType: fact.name, zone }) ?? false;
      return newOffering({
        zone,
        capacityType,
        price: price ?? Number.POSITIVE_INFINITY,
        available: price !== undefined && !refused,
      });
    }),
  );
}

/** A size as the scheduler sees it: requirements, capacity, AKS overhead and offerings. */
export function buildInstanceType(fact: SkuFact, shape: NodeShape, context: OfferingContext): InstanceType {
  return newInstanceType({
    name: fact.name,
    requirements: skuRequirements(fact, context.region, context.zones),
    offerings: skuOfferings(fact, context),
    capacity: skuCapacity(fact, shape),
    overhead: aksOverhead(fact.vCPUs, fact.memoryGB),
  });
}
