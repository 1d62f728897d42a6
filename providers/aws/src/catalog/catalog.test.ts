import { instanceTypeCatalogSchema } from '@nodewright/core/apis';
import { instanceTypesFromCatalog } from '@nodewright/core/catalog';
import { describe, expect, it } from 'vitest';
import { staticOnDemandPrices } from '../pricing/static-prices.js';
import {
  AwsCatalogRegions,
  awsCatalog,
  awsCatalogProvider,
  awsRegionCatalogProviders,
  CatalogSpotFraction,
} from './catalog.js';
import { catalogDataRegions, readAwsCatalogData } from './data.js';

describe('awsCatalog', () => {
  const data = readAwsCatalogData();
  const catalog = awsCatalog({ data });
  const byName = new Map(catalog.instanceTypes.map((t) => [t.name, t]));
  const families = new Set(catalog.instanceTypes.map((t) => t.labels['karpenter.k8s.aws/instance-family']));

  it('is a valid InstanceTypeCatalog whose every type builds', () => {
    const parsed = instanceTypeCatalogSchema.safeParse(JSON.parse(JSON.stringify(catalog)));
    expect(parsed.success, parsed.error?.message).toBe(true);
    const { instanceTypes, problems } = instanceTypesFromCatalog(catalog);
    expect(problems).toEqual([]);
    expect(instanceTypes.length).toBe(data.instanceTypes.filter((t) => t.prices['us-east-1']).length);
    expect(instanceTypes.length).toBeGreaterThan(1000);
  });

  it('has the current-generation families of every category, Intel, AMD and Graviton', () => {
    const expected = [
      ...['m5', 'm6i', 'm7i', 'm6a', 'm7a', 'm6g', 'm7g', 'm8g', 't3', 't3a', 't4g'],
      ...['c5', 'c6i', 'c7i', 'c6a', 'c7a', 'c6g', 'c7g', 'c8g'],
      ...['r5', 'r6i', 'r7i', 'r6a', 'r7a', 'r6g', 'r7g', 'x2idn', 'u-6tb1'],
      ...['i4i', 'i4g', 'im4gn', 'd3'],
      ...['g4dn', 'g5', 'g6', 'g6e', 'p4d', 'p5', 'inf2', 'trn1'],
    ];
    expect(expected.filter((f) => !families.has(f))).toEqual([]);
    for (const previous of ['m4', 'c4', 'r4', 't2', 'm3', 'c3', 'm1', 't1', 'i3', 'd2', 'x1']) {
      expect(families.has(previous), previous).toBe(false);
    }
    const manufacturers = new Set(
      catalog.instanceTypes.map((t) => t.labels['karpenter.k8s.aws/instance-cpu-manufacturer']),
    );
    expect([...manufacturers].sort()).toEqual(expect.arrayContaining(['amd', 'aws', 'intel']));
  });

  it('has every size up to metal', () => {
    for (const name of [
      'm5.24xlarge',
      'm5.metal',
      'm7i.48xlarge',
      'm7i.metal-48xl',
      'c7g.metal',
      'r6i.32xlarge',
    ]) {
      expect(byName.has(name), name).toBe(true);
    }
    expect(byName.get('m5.metal')?.labels['karpenter.k8s.aws/instance-size']).toBe('metal');
    // Bare metal has no hypervisor, as DescribeInstanceTypes reports it.
    expect(byName.get('m5.metal')?.labels['karpenter.k8s.aws/instance-hypervisor']).toBeUndefined();
  });

  it('m5.large has the live provider figures and its public price', () => {
    const m5 = byName.get('m5.large');
    expect(m5?.capacity).toEqual({ cpu: '2', memory: '7577Mi', pods: '29', 'ephemeral-storage': '20Gi' });
    expect(m5?.overhead?.kubeReserved).toEqual({ cpu: '70m', memory: '574Mi', 'ephemeral-storage': '1Gi' });
    expect(m5?.labels).toMatchObject({
      'karpenter.k8s.aws/instance-family': 'm5',
      'karpenter.k8s.aws/instance-cpu': '2',
      'karpenter.k8s.aws/instance-memory': '8192',
      'karpenter.k8s.aws/instance-network-bandwidth': '750',
      'kubernetes.io/arch': 'amd64',
      'topology.kubernetes.io/region': 'us-east-1',
    });
    expect(m5?.offerings.find((o) => o.capacityType === 'on-demand')?.price).toBe(0.096);
  });

  it('offers on-demand at the list price and spot at 0.4x in us-east-1a..c', () => {
    const m6g = byName.get('m6g.xlarge');
    const zones = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
    expect(m6g?.offerings).toEqual(
      zones.flatMap((zone) => [
        { zone, capacityType: 'on-demand', price: 0.154, available: true },
        { zone, capacityType: 'spot', price: 0.0616, available: true },
      ]),
    );
    // 16384 - 64 CMA = 16320; minus ceil(7.5 %) = 1224.
    expect(m6g?.capacity.memory).toBe('15096Mi');
  });

  it('every offered type has a positive price in every offering', () => {
    for (const t of catalog.instanceTypes) {
      expect(t.offerings.length, t.name).toBe(6);
      for (const o of t.offerings) expect(o.price, t.name).toBeGreaterThan(0);
      const od = t.offerings.find((o) => o.capacityType === 'on-demand')!.price;
      const spot = t.offerings.find((o) => o.capacityType === 'spot')!.price;
      expect(spot, t.name).toBeCloseTo(od * CatalogSpotFraction, 5);
    }
  });

  it('NVIDIA GPUs are nvidia.com/gpu and Neuron devices aws.amazon.com/neuron, with their labels', () => {
    const cases: [string, string, string, Record<string, string>][] = [
      ['g5.xlarge', 'nvidia.com/gpu', '1', { 'karpenter.k8s.aws/instance-gpu-name': 'a10g' }],
      ['g5.48xlarge', 'nvidia.com/gpu', '8', { 'karpenter.k8s.aws/instance-gpu-name': 'a10g' }],
      ['g6e.12xlarge', 'nvidia.com/gpu', '4', { 'karpenter.k8s.aws/instance-gpu-name': 'l40s' }],
      ['p4d.24xlarge', 'nvidia.com/gpu', '8', { 'karpenter.k8s.aws/instance-gpu-name': 'a100' }],
      ['p5.48xlarge', 'nvidia.com/gpu', '8', { 'karpenter.k8s.aws/instance-gpu-memory': '81920' }],
      [
        'inf2.xlarge',
        'aws.amazon.com/neuron',
        '1',
        { 'karpenter.k8s.aws/instance-accelerator-name': 'inferentia2' },
      ],
      [
        'trn1.32xlarge',
        'aws.amazon.com/neuron',
        '16',
        { 'karpenter.k8s.aws/instance-accelerator-name': 'trainium' },
      ],
    ];
    for (const [name, resource, count, labels] of cases) {
      const t = byName.get(name);
      expect(t?.capacity[resource], name).toBe(count);
      expect(t?.labels, name).toMatchObject(labels);
    }
    expect(byName.get('m5.large')?.capacity['nvidia.com/gpu']).toBeUndefined();
    // The VPC CNI's pods from the default network card only: 2 x (50 - 1) + 2.
    expect(byName.get('p5.48xlarge')?.capacity.pods).toBe('100');
  });

  it('prices each region from its own table and offers there only the types it prices', () => {
    const gov = awsCatalog({ region: 'us-gov-west-1', data });
    const govByName = new Map(gov.instanceTypes.map((t) => [t.name, t]));
    const od = (t: (typeof catalog.instanceTypes)[number] | undefined) =>
      t?.offerings.find((o) => o.capacityType === 'on-demand')?.price;
    expect(od(govByName.get('m5.large'))).toBeGreaterThan(od(byName.get('m5.large'))!);
    const shared = gov.instanceTypes.filter((t) => byName.has(t.name));
    expect(shared.filter((t) => od(t) !== od(byName.get(t.name))).length).toBeGreaterThan(shared.length / 2);
    expect(gov.instanceTypes.length).toBeLessThan(catalog.instanceTypes.length);
    expect(govByName.has('trn1.32xlarge')).toBe(false);
    expect(gov.instanceTypes.every((t) => t.offerings.every((o) => o.zone.startsWith('us-gov-west-1')))).toBe(
      true,
    );
    expect(govByName.get('m5.large')?.labels['topology.kubernetes.io/region']).toBe('us-gov-west-1');
  });

  it('refuses a region the table does not price, naming the ones it does', () => {
    expect(() => awsCatalog({ region: 'eu-west-1', data })).toThrow(
      'the offline AWS catalog has no prices for region eu-west-1 (it has us-east-1, us-gov-east-1, us-gov-west-1)',
    );
  });

  it('takes zones and the NodeClass shape', () => {
    const one = awsCatalog({ zones: ['us-east-1a'], settings: { kubelet: { maxPods: 110 } }, data });
    const m5 = one.instanceTypes.find((t) => t.name === 'm5.large');
    expect(m5?.offerings.map((o) => o.zone)).toEqual(['us-east-1a', 'us-east-1a']);
    expect(m5?.capacity.pods).toBe('110');
    // AL2023 (the default) sizes kube-reserved memory for the ENI-limited 29 pods.
    expect(m5?.overhead?.kubeReserved?.memory).toBe('574Mi');
  });

  it('the live provider falls back to the same table', () => {
    const east = staticOnDemandPrices('us-east-1', data);
    expect(east.exact).toBe(true);
    expect(east.prices['p5.48xlarge']).toBe(55.04);
    const gov = staticOnDemandPrices('us-gov-west-1', data);
    expect(gov.exact).toBe(true);
    expect(gov.prices['m5.large']).not.toBe(east.prices['m5.large']);
    const west = staticOnDemandPrices('eu-west-1', data);
    expect(west).toEqual({ prices: east.prices, exact: false });
  });

  it('the table notes the public source, commit and paths of its facts', () => {
    expect(data.source.repository).toBe('github.com/aws/karpenter-provider-aws');
    expect(data.source.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(Object.keys(data.source.files)).toEqual(
      expect.arrayContaining([
        'website/content/en/preview/reference/instance-types.md',
        'pkg/providers/instancetype/zz_generated.vpclimits.go',
      ]),
    );
    expect(data.instanceTypes.every((t) => Object.keys(t.prices).length > 0)).toBe(true);
    expect(data.instanceTypes.every((t) => t.hypervisor !== 'xen')).toBe(true);
  });

  it('is provided as --catalog aws and aws:<region> for every region of the table', async () => {
    expect(awsCatalogProvider.name).toBe('aws');
    expect([...AwsCatalogRegions]).toEqual(catalogDataRegions(data));
    expect(awsRegionCatalogProviders.map((p) => p.name)).toEqual(AwsCatalogRegions.map((r) => `aws:${r}`));
    const gov = await awsRegionCatalogProviders.find((p) => p.name === 'aws:us-gov-east-1')!.catalog();
    expect(gov.instanceTypes[0]?.offerings[0]?.zone).toBe('us-gov-east-1a');
  });
});
