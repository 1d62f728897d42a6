import { describe, expect, it } from 'vitest';
import {
  eniLimitedPods,
  ephemeralStorage,
  instanceTypeCapacity,
  maxPods,
  memoryCapacityMiB,
  memoryOverheadPods,
} from './capacity.js';
import { factsFromInstanceTypeInfo, type InstanceTypeFacts } from './facts.js';
import { G4dnXlarge, M5Large, M6gLarge } from './fixtures.js';

function facts(info: Parameters<typeof factsFromInstanceTypeInfo>[0]): InstanceTypeFacts {
  const result = factsFromInstanceTypeInfo(info);
  if (!('facts' in result)) throw new Error(result.skipped);
  return result.facts;
}
const m5 = facts(M5Large);
const m6g = facts(M6gLarge);
const g4dn = facts(G4dnXlarge);
const text = (list: ReadonlyMap<string, { toString(): string }>) =>
  Object.fromEntries([...list].map(([k, v]) => [k, v.toString()]));

describe('memoryCapacityMiB', () => {
  it('takes 7.5 % VM overhead, rounded up: m5.large 8192 MiB -> 7577 MiB', () => {
    expect(memoryCapacityMiB(m5)).toBe(7577);
  });
  it('takes the 64 MiB Graviton CMA reservation first: m6g.large -> 8128 - 610 = 7518 MiB', () => {
    expect(memoryCapacityMiB(m6g)).toBe(7518);
  });
});

describe('pods', () => {
  it('is ENI-limited by default: m5.large 3 x (10 - 1) + 2 = 29', () => {
    expect(eniLimitedPods(m5)).toBe(29);
    expect(maxPods(m5, {})).toBe(29);
  });
  it('takes kubelet maxPods when set', () => {
    expect(maxPods(m5, { kubelet: { maxPods: 50 } })).toBe(50);
  });
  it('caps at podsPerCore x vCPUs', () => {
    expect(maxPods(m5, { kubelet: { podsPerCore: 4 } })).toBe(8);
    expect(maxPods(m5, { kubelet: { maxPods: 5, podsPerCore: 4 } })).toBe(5);
  });
  it('ignores podsPerCore on Bottlerocket and uses 110 on Windows', () => {
    expect(maxPods(m5, { amiFamily: 'Bottlerocket', kubelet: { podsPerCore: 4 } })).toBe(29);
    expect(maxPods(m5, { amiFamily: 'Windows2022' })).toBe(110);
  });
  it('is zero without ENIs', () => {
    expect(eniLimitedPods({ maxENIs: 0, ipv4PerENI: 10 })).toBe(0);
  });
});

describe('memoryOverheadPods', () => {
  it('is ENI-limited for AL2023 and Custom, the admitted pods for Bottlerocket and Windows', () => {
    const kubelet = { maxPods: 110 };
    expect(memoryOverheadPods(m5, { amiFamily: 'AL2023', kubelet })).toBe(29);
    expect(memoryOverheadPods(m5, { amiFamily: 'Custom', kubelet })).toBe(29);
    expect(memoryOverheadPods(m5, { kubelet })).toBe(29);
    expect(memoryOverheadPods(m5, { amiFamily: 'Bottlerocket', kubelet })).toBe(110);
    expect(memoryOverheadPods(m5, { amiFamily: 'Windows2022' })).toBe(110);
  });
});

describe('ephemeralStorage', () => {
  it('defaults to 20Gi, 50Gi on Windows', () => {
    expect(ephemeralStorage(m5, {}).toString()).toBe('20Gi');
    expect(ephemeralStorage(m5, { amiFamily: 'Windows2022' }).toString()).toBe('50Gi');
  });
  it('uses the root volume mapping', () => {
    const blockDeviceMappings = [
      { deviceName: '/dev/xvda', ebs: { volumeSize: '30Gi' } },
      { deviceName: '/dev/xvdb', rootVolume: true, ebs: { volumeSize: '100Gi' } },
    ];
    expect(ephemeralStorage(m5, { blockDeviceMappings }).toString()).toBe('100Gi');
  });
  it("uses the family's kubelet device without a root volume, the last mapping for Custom", () => {
    const blockDeviceMappings = [
      { deviceName: '/dev/xvda', ebs: { volumeSize: '30Gi' } },
      { deviceName: '/dev/xvdb', ebs: { volumeSize: '80Gi' } },
    ];
    expect(ephemeralStorage(m5, { amiFamily: 'AL2023', blockDeviceMappings }).toString()).toBe('30Gi');
    expect(ephemeralStorage(m5, { amiFamily: 'Bottlerocket', blockDeviceMappings }).toString()).toBe('80Gi');
    expect(ephemeralStorage(m5, { amiFamily: 'Custom', blockDeviceMappings }).toString()).toBe('80Gi');
  });
  it('uses the whole NVMe instance store with RAID0', () => {
    expect(ephemeralStorage(g4dn, { instanceStorePolicy: 'RAID0' }).toString()).toBe('125G');
    expect(ephemeralStorage(m5, { instanceStorePolicy: 'RAID0' }).toString()).toBe('20Gi');
  });
});

describe('instanceTypeCapacity', () => {
  it('m5.large', () => {
    expect(text(instanceTypeCapacity(m5, {}))).toEqual({
      cpu: '2',
      memory: '7577Mi',
      pods: '29',
      'ephemeral-storage': '20Gi',
    });
  });
  it('g4dn.xlarge has one NVIDIA GPU', () => {
    expect(text(instanceTypeCapacity(g4dn, {}))).toEqual({
      cpu: '4',
      memory: '15155Mi',
      pods: '29',
      'ephemeral-storage': '20Gi',
      'nvidia.com/gpu': '1',
    });
  });
  it('counts AMD GPUs and Neuron devices under their own resources', () => {
    const shaped: InstanceTypeFacts = {
      ...m5,
      gpus: [{ name: 'Radeon Pro V520', manufacturer: 'AMD', count: 2, memoryMiB: 8192 }],
      neuron: { name: 'Inferentia2', count: 6 },
    };
    const capacity = instanceTypeCapacity(shaped, {});
    expect(capacity.get('amd.com/gpu')?.toString()).toBe('2');
    expect(capacity.get('aws.amazon.com/neuron')?.toString()).toBe('6');
    expect(capacity.has('nvidia.com/gpu')).toBe(false);
  });
});

describe('factsFromInstanceTypeInfo', () => {
  it('reads the fields used', () => {
    expect(m5).toMatchObject({
      name: 'm5.large',
      architecture: 'amd64',
      vcpus: 2,
      memoryMiB: 8192,
      cpuManufacturer: 'intel',
      hypervisor: 'nitro',
      maxENIs: 3,
      ipv4PerENI: 10,
      networkBandwidthMbps: 750,
      ebsBandwidthMbps: 4750,
      capacityTypes: ['on-demand', 'spot'],
    });
    expect(g4dn.localNvmeGB).toBe(125);
  });
  it('skips types it cannot schedule, saying why', () => {
    expect(
      factsFromInstanceTypeInfo({ ...M5Large, ProcessorInfo: { SupportedArchitectures: ['i386'] } }),
    ).toEqual({
      skipped: 'm5.large: no supported architecture in ProcessorInfo.SupportedArchitectures (i386)',
    });
    expect(factsFromInstanceTypeInfo({ ...M5Large, VCpuInfo: {} })).toHaveProperty('skipped');
    expect(factsFromInstanceTypeInfo({ ...M5Large, NetworkInfo: {} })).toHaveProperty('skipped');
  });
});
