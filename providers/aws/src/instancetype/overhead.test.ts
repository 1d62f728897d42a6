import { Quantity } from '@nodewright/core/scheduling';
import { describe, expect, it } from 'vitest';
import {
  evictionSignalQuantity,
  evictionThreshold,
  instanceTypeOverhead,
  kubeReserved,
  kubeReservedMemoryMiB,
  kubeReservedMilliCpu,
} from './overhead.js';

const text = (list: ReadonlyMap<string, { toString(): string }>) =>
  Object.fromEntries([...list].map(([k, v]) => [k, v.toString()]));

describe('kube-reserved', () => {
  it.each([
    [1, 60],
    [2, 70],
    [3, 75],
    [4, 80],
    [5, 82],
    [8, 90],
    [96, 310],
  ])('%i vCPU -> %im', (vcpus, milli) => {
    expect(kubeReservedMilliCpu(vcpus)).toBe(milli);
  });
  it('memory: 29 pods -> 574Mi, 110 pods -> 1465Mi', () => {
    expect(kubeReservedMemoryMiB(29)).toBe(574);
    expect(kubeReservedMemoryMiB(110)).toBe(1465);
  });
  it('is overridden per resource by kubelet.kubeReserved', () => {
    expect(text(kubeReserved(2, 29))).toEqual({ cpu: '70m', memory: '574Mi', 'ephemeral-storage': '1Gi' });
    expect(text(kubeReserved(2, 29, { kubeReserved: { cpu: '200m' } }))).toEqual({
      cpu: '200m',
      memory: '574Mi',
      'ephemeral-storage': '1Gi',
    });
  });
});

describe('eviction thresholds', () => {
  const memory = Quantity.parse('7577Mi');
  const storage = Quantity.parse('20Gi');
  it('defaults to memory 100Mi and 10 % of ephemeral storage', () => {
    expect(text(evictionThreshold(memory, storage))).toEqual({ memory: '100Mi', 'ephemeral-storage': '2Gi' });
  });
  it('percentages are of capacity, rounded up to a byte', () => {
    expect(evictionSignalQuantity(Quantity.parse('1000'), '5.5%').toString()).toBe('55');
    expect(evictionSignalQuantity(Quantity.parse('1001'), '10%').toString()).toBe('101');
    expect(evictionSignalQuantity(memory, '250Mi').toString()).toBe('250Mi');
  });
  it('evictionHard replaces a default; evictionSoft counts when larger', () => {
    expect(
      text(
        evictionThreshold(memory, storage, {
          evictionHard: { 'memory.available': '5%', 'nodefs.available': '15%' },
        }),
      ),
    ).toEqual({ memory: '397253018', 'ephemeral-storage': '3Gi' });
    expect(
      text(
        evictionThreshold(memory, storage, {
          evictionHard: { 'memory.available': '200Mi' },
          evictionSoft: { 'memory.available': '500Mi' },
          evictionSoftGracePeriod: { 'memory.available': '1m' },
        }),
      ),
    ).toEqual({ memory: '500Mi', 'ephemeral-storage': '2Gi' });
    expect(
      text(
        evictionThreshold(memory, storage, {
          evictionHard: { 'memory.available': '600Mi' },
          evictionSoft: { 'memory.available': '500Mi' },
          evictionSoftGracePeriod: { 'memory.available': '1m' },
        }),
      ),
    ).toEqual({ memory: '600Mi', 'ephemeral-storage': '2Gi' });
  });
});

describe('instanceTypeOverhead', () => {
  it('m5.large: 70m cpu, 574Mi memory reserved; systemReserved from the kubelet', () => {
    const capacity = new Map([
      ['cpu', Quantity.parse('2')],
      ['memory', Quantity.parse('7577Mi')],
      ['pods', Quantity.parse('29')],
      ['ephemeral-storage', Quantity.parse('20Gi')],
    ]);
    const overhead = instanceTypeOverhead(capacity, 2, { systemReserved: { memory: '100Mi' } });
    expect(text(overhead.kubeReserved)).toEqual({ cpu: '70m', memory: '574Mi', 'ephemeral-storage': '1Gi' });
    expect(text(overhead.systemReserved)).toEqual({ memory: '100Mi' });
    expect(text(overhead.evictionThreshold)).toEqual({ memory: '100Mi', 'ephemeral-storage': '2Gi' });
  });
});
