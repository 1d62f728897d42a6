import { FakeClock } from '@nodewright/core/clock';
import { isOfferingCompatible, UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import { Requirements } from '@nodewright/core/scheduling';
import { describe, expect, it } from 'vitest';
import type { AwsPrices } from '../ports.js';
import { buildInstanceType } from './build.js';
import { factsFromInstanceTypeInfo, type InstanceTypeFacts } from './facts.js';
import { G4dnXlarge, M5Large, M6gLarge } from './fixtures.js';

function facts(info: Parameters<typeof factsFromInstanceTypeInfo>[0]): InstanceTypeFacts {
  const result = factsFromInstanceTypeInfo(info);
  if (!('facts' in result)) throw new Error(result.skipped);
  return result.facts;
}
const text = (list: ReadonlyMap<string, { toString(): string }>) =>
  Object.fromEntries([...list].map(([k, v]) => [k, v.toString()]));
const values = (it: ReturnType<typeof buildInstanceType>, key: string) => {
  const r = it.requirements.get(key);
  return r === undefined ? undefined : { complement: r.complement, values: [...r.values].sort() };
};

const prices: AwsPrices = {
  onDemand: (t) => ({ 'm5.large': 0.096, 'g4dn.xlarge': 0.526 })[t],
  spot: (t, z) => (t === 'm5.large' && z === 'us-east-1a' ? 0.04 : undefined),
};
const zones = [
  { zone: 'us-east-1a', zoneID: 'use1-az1' },
  { zone: 'us-east-1b', zoneID: 'use1-az2' },
];

describe('buildInstanceType', () => {
  it('m5.large: labels, capacity, allocatable', () => {
    const it = buildInstanceType(facts(M5Large), {}, { zones, prices, region: 'us-east-1' });
    expect(it.requirements.labels()).toMatchObject({
      'node.kubernetes.io/instance-type': 'm5.large',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/os': 'linux',
      'topology.kubernetes.io/region': 'us-east-1',
      'karpenter.k8s.aws/instance-category': 'm',
      'karpenter.k8s.aws/instance-family': 'm5',
      'karpenter.k8s.aws/instance-generation': '5',
      'karpenter.k8s.aws/instance-size': 'large',
      'karpenter.k8s.aws/instance-cpu': '2',
      'karpenter.k8s.aws/instance-cpu-manufacturer': 'intel',
      'karpenter.k8s.aws/instance-memory': '8192',
      'karpenter.k8s.aws/instance-network-bandwidth': '750',
      'karpenter.k8s.aws/instance-ebs-bandwidth': '4750',
      'karpenter.k8s.aws/instance-hypervisor': 'nitro',
      'karpenter.k8s.aws/instance-encryption-in-transit-supported': 'false',
    });
    expect(values(it, 'topology.kubernetes.io/zone')).toEqual({
      complement: false,
      values: ['us-east-1a', 'us-east-1b'],
    });
    expect(values(it, 'topology.k8s.aws/zone-id')).toEqual({
      complement: false,
      values: ['use1-az1', 'use1-az2'],
    });
    expect(values(it, 'karpenter.sh/capacity-type')).toEqual({
      complement: false,
      values: ['on-demand', 'spot'],
    });
    expect(values(it, 'karpenter.k8s.aws/instance-gpu-count')).toEqual({ complement: false, values: [] });
    expect(text(it.capacity)).toEqual({
      cpu: '2',
      memory: '7577Mi',
      pods: '29',
      'ephemeral-storage': '20Gi',
    });
    expect(text(it.allocatable)).toEqual({
      cpu: '1930m',
      memory: '6903Mi',
      pods: '29',
      'ephemeral-storage': '17Gi',
    });
  });

  it('g4dn.xlarge: GPU labels and local NVMe', () => {
    const it = buildInstanceType(facts(G4dnXlarge), {}, { zones, prices });
    expect(it.requirements.labels()).toMatchObject({
      'karpenter.k8s.aws/instance-gpu-name': 't4',
      'karpenter.k8s.aws/instance-gpu-manufacturer': 'nvidia',
      'karpenter.k8s.aws/instance-gpu-count': '1',
      'karpenter.k8s.aws/instance-gpu-memory': '16384',
      'karpenter.k8s.aws/instance-local-nvme': '125',
    });
    expect(it.capacity.get('nvidia.com/gpu')?.toString()).toBe('1');
  });

  it('Windows families label os windows on amd64 and nothing on arm64', () => {
    const amd = buildInstanceType(facts(M5Large), { amiFamily: 'Windows2022' }, { zones, prices });
    const arm = buildInstanceType(facts(M6gLarge), { amiFamily: 'Windows2022' }, { zones, prices });
    expect(values(amd, 'kubernetes.io/os')).toEqual({ complement: false, values: ['windows'] });
    expect(values(arm, 'kubernetes.io/os')).toEqual({ complement: false, values: [] });
  });

  it('offers spot and on-demand per zone; without a price an offering is unavailable', () => {
    const it = buildInstanceType(facts(M5Large), {}, { zones, prices });
    expect(it.offerings.map((o) => [o.zone, o.capacityType, o.price, o.available])).toEqual([
      ['us-east-1a', 'on-demand', 0.096, true],
      ['us-east-1a', 'spot', 0.04, true],
      ['us-east-1b', 'on-demand', 0.096, true],
      ['us-east-1b', 'spot', Number.POSITIVE_INFINITY, false],
    ]);
  });

  it('offerings stay compatible with a claim that names no zone-id (core allows only its own labels undefined)', () => {
    const it = buildInstanceType(facts(M5Large), {}, { zones, prices });
    const claim = Requirements.fromNodeSelectorRequirements([
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      { key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] },
    ]);
    expect(it.offerings.filter((o) => isOfferingCompatible(o, claim)).map((o) => o.zone)).toEqual([
      'us-east-1a',
      'us-east-1b',
    ]);
  });

  it('marks offerings the unavailable-offerings cache lists', () => {
    const cache = new UnavailableOfferingsCache(new FakeClock(0));
    cache.markUnavailable({ capacityType: 'on-demand', instanceType: 'm5.large', zone: 'us-east-1b' }, 'ICE');
    const it = buildInstanceType(
      facts(M5Large),
      {},
      { zones, prices, unavailable: (o) => cache.isUnavailable(o) },
    );
    expect(it.offerings.filter((o) => !o.available).map((o) => `${o.capacityType}/${o.zone}`)).toEqual([
      'on-demand/us-east-1b',
      'spot/us-east-1b',
    ]);
  });

  it('applies the kubelet settings to capacity and overhead', () => {
    const it = buildInstanceType(
      facts(M5Large),
      {
        kubelet: {
          maxPods: 110,
          systemReserved: { cpu: '100m' },
          evictionHard: { 'memory.available': '200Mi' },
        },
      },
      { zones, prices },
    );
    // AL2023 sizes kube-reserved memory for the ENI-limited 29 pods (574Mi), not for maxPods.
    expect(text(it.allocatable)).toEqual({
      cpu: '1830m',
      memory: '6803Mi',
      pods: '110',
      'ephemeral-storage': '17Gi',
    });
    const bottlerocket = buildInstanceType(
      facts(M5Large),
      { amiFamily: 'Bottlerocket', kubelet: { maxPods: 110 } },
      { zones, prices },
    );
    expect(bottlerocket.overhead.kubeReserved.get('memory')?.toString()).toBe('1465Mi');
  });
});
