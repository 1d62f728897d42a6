import { describe, expect, it } from 'vitest';
import { instanceTypeCatalogSchema } from '../apis/catalog/instance-type-catalog.js';
import { Labels } from '../apis/labels.js';
import { Requirements } from '../scheduling/requirements/requirements.js';
import { formatResourceList } from '../scheduling/resources/resource-list.js';
import { catalogWellKnownLabels, instanceTypesFromCatalog } from './catalog-instance-types.js';
import { describeCatalogProblem } from './catalog-problem.js';

const catalog = (types: unknown[]) =>
  instanceTypeCatalogSchema.parse({
    apiVersion: 'nodewright.dev/v1alpha1',
    kind: 'InstanceTypeCatalog',
    metadata: { name: 'example' },
    instanceTypes: types,
  });

const m4 = {
  name: 'm-4x-amd64',
  labels: { 'kubernetes.io/arch': 'amd64', 'kubernetes.io/os': 'linux', 'example.com/family': 'm' },
  capacity: { cpu: '4', memory: '16Gi', pods: '110' },
  overhead: {
    kubeReserved: { cpu: '80m', memory: '1Gi' },
    systemReserved: {},
    evictionThreshold: { memory: '100Mi' },
  },
  offerings: [
    { zone: 'zone-a', capacityType: 'on-demand', price: 0.192 },
    { zone: 'zone-b', capacityType: 'on-demand', price: 0.192 },
    { zone: 'zone-a', capacityType: 'spot', price: 0.058, available: false },
  ],
};

describe('instanceTypesFromCatalog', () => {
  it('builds requirements from labels, name, offering zones and capacity types', () => {
    const { instanceTypes, problems } = instanceTypesFromCatalog(catalog([m4]));
    expect(problems).toEqual([]);
    const [type] = instanceTypes;
    expect(type?.name).toBe('m-4x-amd64');
    expect(type?.requirements.toNodeSelectorRequirements()).toEqual([
      { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
      { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
      { key: 'example.com/family', operator: 'In', values: ['m'] },
      { key: Labels.InstanceType, operator: 'In', values: ['m-4x-amd64'] },
      { key: Labels.CapacityType, operator: 'In', values: ['on-demand', 'spot'] },
      { key: Labels.Zone, operator: 'In', values: ['zone-a', 'zone-b'] },
    ]);
  });

  it('derives allocatable as capacity minus the three overheads', () => {
    const [type] = instanceTypesFromCatalog(catalog([m4])).instanceTypes;
    expect(formatResourceList(type!.capacity)).toEqual({ cpu: '4', memory: '16Gi', pods: '110' });
    expect(formatResourceList(type!.allocatable)).toEqual({ cpu: '3920m', memory: '15260Mi', pods: '110' });
    expect(formatResourceList(type!.overhead.evictionThreshold)).toEqual({ memory: '100Mi' });
  });

  it('keeps every offering with its price and availability, each with zone and capacity type requirements', () => {
    const [type] = instanceTypesFromCatalog(catalog([m4])).instanceTypes;
    expect(type!.offerings.map((o) => [o.zone, o.capacityType, o.price, o.available])).toEqual([
      ['zone-a', 'on-demand', 0.192, true],
      ['zone-b', 'on-demand', 0.192, true],
      ['zone-a', 'spot', 0.058, false],
    ]);
    const spotInA = Requirements.fromLabels({ [Labels.Zone]: 'zone-a', [Labels.CapacityType]: 'spot' });
    expect(type!.offerings[2]!.requirements.isCompatible(spotInA)).toBe(true);
    expect(type!.offerings[1]!.requirements.isCompatible(spotInA)).toBe(false);
  });

  it('types without labels or overhead have allocatable equal to capacity', () => {
    const [type] = instanceTypesFromCatalog(
      catalog([
        {
          name: 'tiny',
          capacity: { cpu: 1, memory: '1Gi' },
          offerings: [{ zone: 'z', capacityType: 'spot', price: 0.01 }],
        },
      ]),
    ).instanceTypes;
    expect(formatResourceList(type!.allocatable)).toEqual({ cpu: '1', memory: '1Gi' });
    expect(type!.requirements.keys()).toEqual([Labels.InstanceType, Labels.CapacityType, Labels.Zone]);
  });

  it('reports a deprecated alias that contradicts its stable key, naming catalog, type and field', () => {
    const bad = { ...m4, labels: { 'kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/arch': 'arm64' } };
    const { instanceTypes, problems } = instanceTypesFromCatalog(catalog([m4, { ...bad, name: 'bad' }]));
    expect(instanceTypes.map((t) => t.name)).toEqual(['m-4x-amd64']);
    expect(problems.map(describeCatalogProblem)).toEqual([
      'InstanceTypeCatalog/example: instanceTypes[1].labels["beta.kubernetes.io/arch"]: instance type bad: "arm64" contradicts kubernetes.io/arch="amd64": both set kubernetes.io/arch',
    ]);
    expect(problems[0]?.instanceType).toBe('bad');
  });

  it('accepts an alias that agrees with its stable key', () => {
    const same = { ...m4, labels: { 'kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/arch': 'amd64' } };
    const { instanceTypes, problems } = instanceTypesFromCatalog(catalog([same]));
    expect(problems).toEqual([]);
    expect(instanceTypes[0]?.requirements.get('kubernetes.io/arch')?.sortedValues()).toEqual(['amd64']);
  });

  it('rejects a deprecated zone alias, since zones come from offerings', () => {
    const zoned = { ...m4, labels: { 'failure-domain.beta.kubernetes.io/zone': 'zone-a' } };
    const { problems } = instanceTypesFromCatalog(catalog([zoned]));
    expect(problems.map((p) => [p.path, p.message])).toEqual([
      [
        'instanceTypes[0].labels["failure-domain.beta.kubernetes.io/zone"]',
        'instance type m-4x-amd64: failure-domain.beta.kubernetes.io/zone is set per offering (zone and capacityType), not per type',
      ],
    ]);
  });
});

describe('catalog well-known labels', () => {
  const gpu = {
    ...m4,
    name: 'g-4x-amd64',
    labels: { ...m4.labels, 'example.com/family': 'g', 'example.com/gpu': 'nvidia' },
  };

  it('are the declared keys and every key a type carries, beyond core and offering labels', () => {
    const declared = { ...catalog([m4, gpu]), wellKnownLabels: ['example.com/fpga'] };
    expect([...catalogWellKnownLabels([declared])]).toEqual([
      'example.com/family',
      'example.com/fpga',
      'example.com/gpu',
    ]);
  });

  it('give a type DoesNotExist for each such label it does not carry', () => {
    const declared = { ...catalog([m4, gpu]), wellKnownLabels: ['example.com/fpga'] };
    const [plain, withGpu] = instanceTypesFromCatalog(declared).instanceTypes;
    expect(plain!.requirements.get('example.com/gpu')?.toString()).toBe('example.com/gpu DoesNotExist');
    expect(plain!.requirements.get('example.com/fpga')?.toString()).toBe('example.com/fpga DoesNotExist');
    expect(withGpu!.requirements.get('example.com/gpu')?.toString()).toBe('example.com/gpu In [nvidia]');
    const exists = Requirements.fromNodeSelectorRequirements([
      { key: 'example.com/gpu', operator: 'Exists' },
    ]);
    expect([plain, withGpu].map((t) => t!.requirements.intersects(exists))).toEqual([false, true]);
  });

  it('leave core labels alone: a type without an arch label is not DoesNotExist for it', () => {
    const bare = { name: 'bare', capacity: { cpu: '1', memory: '1Gi' }, offerings: m4.offerings };
    const [, type] = instanceTypesFromCatalog(catalog([m4, bare])).instanceTypes;
    expect(type!.requirements.has('kubernetes.io/arch')).toBe(false);
    expect(type!.requirements.get('example.com/family')?.toString()).toBe('example.com/family DoesNotExist');
  });

  it('are validated as label keys', () => {
    const result = instanceTypeCatalogSchema.safeParse({
      ...catalog([m4]),
      wellKnownLabels: ['not a key!'],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['wellKnownLabels', 0]);
  });
});
