import { instanceTypeCatalogSchema } from '@nodewright/core/apis';
import { instanceTypesFromCatalog } from '@nodewright/core/catalog';
import { describe, expect, it } from 'vitest';
import { StaticOnDemandPrices } from '../pricing/static-prices.js';
import { awsCatalog, awsCatalogProvider } from './catalog.js';
import { catalogInstanceFacts } from './instance-facts.js';

describe('awsCatalog', () => {
  const catalog = awsCatalog();

  it('is a valid InstanceTypeCatalog whose every type builds', () => {
    const parsed = instanceTypeCatalogSchema.safeParse(JSON.parse(JSON.stringify(catalog)));
    expect(parsed.success, parsed.error?.message).toBe(true);
    const { instanceTypes, problems } = instanceTypesFromCatalog(catalog);
    expect(problems).toEqual([]);
    expect(instanceTypes).toHaveLength(catalogInstanceFacts().length);
  });

  it('m5.large has the live provider figures', () => {
    const m5 = catalog.instanceTypes.find((t) => t.name === 'm5.large');
    expect(m5?.capacity).toEqual({ cpu: '2', memory: '7577Mi', pods: '29', 'ephemeral-storage': '20Gi' });
    expect(m5?.overhead?.kubeReserved).toEqual({ cpu: '70m', memory: '574Mi', 'ephemeral-storage': '1Gi' });
    expect(m5?.labels).toMatchObject({
      'karpenter.k8s.aws/instance-family': 'm5',
      'karpenter.k8s.aws/instance-cpu': '2',
      'karpenter.k8s.aws/instance-memory': '8192',
      'kubernetes.io/arch': 'amd64',
      'topology.kubernetes.io/region': 'us-east-1',
    });
  });

  it('offers on-demand at the list price and spot at 0.4x in us-east-1a..c', () => {
    const m6g = catalog.instanceTypes.find((t) => t.name === 'm6g.xlarge');
    expect(m6g?.offerings).toEqual([
      { zone: 'us-east-1a', capacityType: 'on-demand', price: 0.154, available: true },
      { zone: 'us-east-1a', capacityType: 'spot', price: 0.0616, available: true },
      { zone: 'us-east-1b', capacityType: 'on-demand', price: 0.154, available: true },
      { zone: 'us-east-1b', capacityType: 'spot', price: 0.0616, available: true },
      { zone: 'us-east-1c', capacityType: 'on-demand', price: 0.154, available: true },
      { zone: 'us-east-1c', capacityType: 'spot', price: 0.0616, available: true },
    ]);
    // 16384 - 64 CMA = 16320; minus ceil(7.5 %) = 1224.
    expect(m6g?.capacity.memory).toBe('15096Mi');
  });

  it('g4dn.12xlarge has 4 GPUs', () => {
    const g = catalog.instanceTypes.find((t) => t.name === 'g4dn.12xlarge');
    expect(g?.capacity['nvidia.com/gpu']).toBe('4');
    expect(g?.labels['karpenter.k8s.aws/instance-gpu-count']).toBe('4');
  });

  it('every table type has a static price in both regions', () => {
    for (const facts of catalogInstanceFacts()) {
      expect(StaticOnDemandPrices['us-east-1']?.[facts.name], facts.name).toBeGreaterThan(0);
      expect(StaticOnDemandPrices['us-west-2']?.[facts.name], facts.name).toBeGreaterThan(0);
    }
  });

  it('takes a region, zones and the NodeClass shape', () => {
    const west = awsCatalog({
      region: 'us-west-2',
      zones: ['us-west-2a'],
      settings: { kubelet: { maxPods: 110 } },
    });
    const m5 = west.instanceTypes.find((t) => t.name === 'm5.large');
    expect(m5?.offerings.map((o) => o.zone)).toEqual(['us-west-2a', 'us-west-2a']);
    expect(m5?.capacity.pods).toBe('110');
    // AL2023 (the default) sizes kube-reserved memory for the ENI-limited 29 pods.
    expect(m5?.overhead?.kubeReserved?.memory).toBe('574Mi');
  });

  it('is provided as --catalog aws', () => {
    expect(awsCatalogProvider.name).toBe('aws');
    expect(awsCatalogProvider.catalog().instanceTypes.length).toBe(catalog.instanceTypes.length);
  });
});
