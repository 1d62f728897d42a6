import { CapacityTypes, Labels } from '../apis/labels.js';
import { type InstanceType, newInstanceType } from '../cloudprovider/instance-type.js';
import { newOffering } from '../cloudprovider/offering.js';
import { Requirement } from '../scheduling/requirements/requirement.js';
import { Requirements } from '../scheduling/requirements/requirements.js';
import { parseResourceList } from '../scheduling/resources/resource-list.js';

/** Zones and region of the fake cloud. */
export const FakeZones = ['test-zone-a', 'test-zone-b', 'test-zone-c'] as const;
export const FakeRegion = 'test-region';

/** Spot costs this fraction of on-demand in the fake catalog. */
export const FakeSpotDiscount = 0.7;

/** The shape of one fake instance type. */
export interface FakeInstanceTypeSpec {
  readonly name: string;
  readonly cpu: string;
  readonly memory: string;
  readonly pods?: string;
  /** Extended resources, e.g. `{'nvidia.com/gpu': '1'}`. */
  readonly extended?: Readonly<Record<string, string>>;
  /** On-demand price per hour. */
  readonly price: number;
  readonly arch?: string;
  readonly zones?: readonly string[];
  readonly capacityTypes?: readonly string[];
}

/**
 * An instance type whose requirements define every well-known label (instance type, arch, os,
 * region, zones, capacity types) and whose offerings are each zone × capacity type, spot at
 * `FakeSpotDiscount` of the price. No overhead: allocatable equals capacity.
 */
export function fakeInstanceType(spec: FakeInstanceTypeSpec): InstanceType {
  const zones = spec.zones ?? FakeZones;
  const capacityTypes = spec.capacityTypes ?? [CapacityTypes.OnDemand, CapacityTypes.Spot];
  const requirements = new Requirements([
    Requirement.create(Labels.InstanceType, 'In', [spec.name]),
    Requirement.create(Labels.Arch, 'In', [spec.arch ?? 'amd64']),
    Requirement.create(Labels.OS, 'In', ['linux']),
    Requirement.create(Labels.Region, 'In', [FakeRegion]),
    Requirement.create(Labels.Zone, 'In', [...zones]),
    Requirement.create(Labels.CapacityType, 'In', [...capacityTypes]),
  ]);
  const offerings = zones.flatMap((zone) =>
    capacityTypes.map((capacityType) =>
      newOffering({
        zone,
        capacityType,
        price: capacityType === CapacityTypes.Spot ? spec.price * FakeSpotDiscount : spec.price,
      }),
    ),
  );
  return newInstanceType({
    name: spec.name,
    requirements,
    offerings,
    capacity: parseResourceList({
      cpu: spec.cpu,
      memory: spec.memory,
      pods: spec.pods ?? '110',
      ...spec.extended,
    }),
  });
}

/** The fake catalog: four general types doubling in size and price, and one with a GPU. */
export function fakeInstanceTypes(): InstanceType[] {
  return [
    fakeInstanceType({ name: 'fake-small', cpu: '2', memory: '4Gi', price: 0.1 }),
    fakeInstanceType({ name: 'fake-medium', cpu: '4', memory: '8Gi', price: 0.2 }),
    fakeInstanceType({ name: 'fake-large', cpu: '8', memory: '16Gi', price: 0.4 }),
    fakeInstanceType({ name: 'fake-xlarge', cpu: '16', memory: '32Gi', price: 0.8 }),
    fakeInstanceType({
      name: 'fake-gpu',
      cpu: '8',
      memory: '32Gi',
      extended: { 'nvidia.com/gpu': '1' },
      price: 1.5,
    }),
  ];
}
