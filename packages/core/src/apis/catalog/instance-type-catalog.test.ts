import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { KindRegistry } from '../kind.js';
import { instanceTypeCatalogKind, instanceTypeCatalogSchema } from './instance-type-catalog.js';

/** The contract's example catalog (cli.md), as a user would write it. */
const example = () => ({
  apiVersion: 'nodewright.dev/v1alpha1',
  kind: 'InstanceTypeCatalog',
  metadata: { name: 'example' },
  instanceTypes: [
    {
      name: 'm-4x-amd64',
      labels: {
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/os': 'linux',
        'example.com/instance-family': 'm',
      } as Record<string, string>,
      capacity: { cpu: '4', memory: '16Gi', pods: '110' } as Record<string, string>,
      overhead: {
        kubeReserved: { cpu: '80m', memory: '1Gi' },
        systemReserved: {},
        evictionThreshold: { memory: '100Mi' },
      } as Record<string, Record<string, string>>,
      offerings: [
        { zone: 'zone-a', capacityType: 'on-demand', price: 0.192 },
        { zone: 'zone-a', capacityType: 'spot', price: 0.058, available: false },
      ] as Record<string, unknown>[],
    },
  ],
});

const errorsOf = (value: unknown) =>
  fieldErrors(instanceTypeCatalogSchema.safeParse(value).error?.issues ?? []).map((e) => [e.path, e.message]);

describe('instanceTypeCatalogSchema', () => {
  it('parses the contract example, defaulting available to true', () => {
    const catalog = instanceTypeCatalogSchema.parse(example());
    const type = catalog.instanceTypes[0]!;
    expect(type.name).toBe('m-4x-amd64');
    expect(type.labels['example.com/instance-family']).toBe('m');
    expect(type.offerings.map((o) => o.available)).toEqual([true, false]);
    expect(type.overhead?.evictionThreshold).toEqual({ memory: '100Mi' });
  });

  it('accepts numeric capacities and types without labels or overhead', () => {
    const catalog = example();
    catalog.instanceTypes[0] = {
      name: 'tiny',
      capacity: { cpu: 1, memory: '1Gi' },
      offerings: [{ zone: 'z', capacityType: 'reserved', price: 0, reservationCapacity: 3 }],
    } as never;
    const parsed = instanceTypeCatalogSchema.parse(catalog);
    expect(parsed.instanceTypes[0]?.capacity).toEqual({ cpu: '1', memory: '1Gi' });
    expect(parsed.instanceTypes[0]?.labels).toEqual({});
    expect(parsed.instanceTypes[0]?.offerings[0]?.reservationCapacity).toBe(3);
  });

  it('rejects duplicate type names', () => {
    const catalog = example();
    catalog.instanceTypes.push(structuredClone(catalog.instanceTypes[0]!));
    expect(errorsOf(catalog)).toEqual([
      ['instanceTypes[1].name', '"m-4x-amd64" is already the name of instanceTypes[0]'],
    ]);
  });

  it('requires at least one offering, and cpu and memory capacity', () => {
    const catalog = example();
    catalog.instanceTypes[0]!.offerings = [];
    catalog.instanceTypes[0]!.capacity = { pods: '110' };
    catalog.instanceTypes[0]!.overhead = {};
    expect(errorsOf(catalog)).toEqual([
      ['instanceTypes[0].offerings', 'must have at least one offering'],
      ['instanceTypes[0].capacity.cpu', 'is required'],
      ['instanceTypes[0].capacity.memory', 'is required'],
    ]);
    catalog.instanceTypes[0]!.offerings = [{ zone: 'a', capacityType: 'spot', price: 1 }];
    catalog.instanceTypes[0]!.capacity = { cpu: '1', memory: '1Gi' };
    expect(errorsOf(catalog)).toEqual([]);
  });

  it('rejects negative or non-numeric prices and unknown capacity types', () => {
    const catalog = example();
    catalog.instanceTypes[0]!.offerings = [
      { zone: 'a', capacityType: 'spot', price: -0.1 },
      { zone: 'b', capacityType: 'spot', price: '0.1' },
      { zone: 'c', capacityType: 'preemptible', price: 1 },
    ];
    expect(errorsOf(catalog)).toEqual([
      ['instanceTypes[0].offerings[0].price', 'must not be negative'],
      ['instanceTypes[0].offerings[1].price', 'must be a number (the price per hour)'],
      ['instanceTypes[0].offerings[2].capacityType', 'must be one of on-demand, spot, reserved'],
    ]);
  });

  it('reservationCapacity only for reserved offerings; duplicate non-reserved offerings rejected', () => {
    const catalog = example();
    catalog.instanceTypes[0]!.offerings = [
      { zone: 'a', capacityType: 'spot', price: 1, reservationCapacity: 2 },
      { zone: 'a', capacityType: 'spot', price: 2 },
      { zone: 'a', capacityType: 'reserved', price: 0.5, reservationCapacity: 1 },
      { zone: 'a', capacityType: 'reserved', price: 0.5, reservationCapacity: 4 },
    ];
    expect(errorsOf(catalog)).toEqual([
      [
        'instanceTypes[0].offerings[0].reservationCapacity',
        'may only be set when capacityType is reserved, not spot',
      ],
      ['instanceTypes[0].offerings[1]', 'repeats offerings[0] (spot in a)'],
    ]);
  });

  it('labels hold one value per key, and may not fix the zone, capacity type or a different type name', () => {
    const catalog = example();
    catalog.instanceTypes[0]!.labels = {
      'topology.kubernetes.io/zone': 'a',
      'karpenter.sh/capacity-type': 'spot',
      'node.kubernetes.io/instance-type': 'other',
    };
    expect(errorsOf(catalog)).toEqual([
      [
        'instanceTypes[0].labels["node.kubernetes.io/instance-type"]',
        'must equal the type\'s name "m-4x-amd64" (or be left out: it is set from the name)',
      ],
      [
        'instanceTypes[0].labels["topology.kubernetes.io/zone"]',
        'is set per offering (zone and capacityType), not per type',
      ],
      [
        'instanceTypes[0].labels["karpenter.sh/capacity-type"]',
        'is set per offering (zone and capacityType), not per type',
      ],
    ]);
    catalog.instanceTypes[0]!.labels = { arch: ['amd64', 'arm64'] } as never;
    expect(errorsOf(catalog)[0]?.[0]).toBe('instanceTypes[0].labels.arch');
  });

  it('rejects overhead above capacity', () => {
    const catalog = example();
    catalog.instanceTypes[0]!.overhead = {
      kubeReserved: { memory: '10Gi' },
      systemReserved: { memory: '7Gi' },
    };
    expect(errorsOf(catalog)).toEqual([
      ['instanceTypes[0].overhead', 'reserves more memory than the capacity (16Gi)'],
    ]);
  });

  it('the type name must be a label value', () => {
    const catalog = example();
    catalog.instanceTypes[0]!.name = 'm4/x';
    expect(errorsOf(catalog)[0]?.[0]).toBe('instanceTypes[0].name');
  });

  it("rejects unknown fields, since the format is nodewright's own", () => {
    const catalog = { ...example(), instancetypes: [] };
    expect(errorsOf(catalog)).toEqual([['', 'unknown field "instancetypes"']]);
    const typo = example();
    (typo.instanceTypes[0]!.offerings[0] as Record<string, unknown>).prize = 1;
    expect(errorsOf(typo)).toEqual([['instanceTypes[0].offerings[0]', 'unknown field "prize"']]);
  });
});

describe('instanceTypeCatalogKind', () => {
  it('registers as a cluster-scoped kind without a CRD', () => {
    const registry = new KindRegistry([instanceTypeCatalogKind]);
    const def = registry.get('nodewright.dev/v1alpha1', 'InstanceTypeCatalog');
    expect(def?.namespaced).toBe(false);
    expect(def?.crd).toBeUndefined();
    expect(def?.schema.safeParse(example()).success).toBe(true);
  });
});
