import { describe, expect, it } from 'vitest';
import { offeredSku, type ResourceSkuInfo } from './facts.js';

const sku = (over: Partial<ResourceSkuInfo> = {}): ResourceSkuInfo => ({
  resourceType: 'virtualMachines',
  name: 'Standard_D2s_v5',
  family: 'standardDSv5Family',
  locations: ['eastus'],
  locationInfo: [{ location: 'eastus', zones: ['3', '1', '2'] }],
  capabilities: [
    { name: 'vCPUs', value: '2' },
    { name: 'MemoryGB', value: '8' },
    { name: 'LowPriorityCapable', value: 'True' },
    { name: 'CpuArchitectureType', value: 'x64' },
  ],
  restrictions: [],
  ...over,
});

describe('offeredSku', () => {
  it('reads a VM size with its zones sorted', () => {
    const r = offeredSku(sku(), 'eastus');
    expect(r).toMatchObject({
      sku: { zones: ['1', '2', '3'], fact: { vCPUs: 2, memoryGB: 8, lowPriorityCapable: true } },
    });
  });
  it('drops a zone restricted for the subscription, and the size when every zone is', () => {
    const zone = (zones: string[]) => ({
      type: 'Zone',
      values: ['eastus'],
      restrictionInfo: { locations: ['eastus'], zones },
      reasonCode: 'NotAvailableForSubscription',
    });
    expect(offeredSku(sku({ restrictions: [zone(['2'])] }), 'eastus')).toMatchObject({
      sku: { zones: ['1', '3'] },
    });
    expect(offeredSku(sku({ restrictions: [zone(['1', '2', '3'])] }), 'eastus')).toEqual({
      skipped: 'Standard_D2s_v5: restricted in every zone of eastus',
    });
  });
  it('skips a size restricted in the location, another resource type, and sizes too small', () => {
    const location = { type: 'Location', values: ['eastus'], reasonCode: 'NotAvailableForSubscription' };
    expect(offeredSku(sku({ restrictions: [location] }), 'eastus')).toEqual({
      skipped: 'Standard_D2s_v5: restricted in eastus (NotAvailableForSubscription)',
    });
    expect(offeredSku(sku({ resourceType: 'disks' }), 'eastus')).toHaveProperty('skipped');
    const small = sku({
      capabilities: [
        { name: 'vCPUs', value: '1' },
        { name: 'MemoryGB', value: '2' },
      ],
    });
    expect(offeredSku(small, 'eastus')).toEqual({ skipped: 'Standard_D2s_v5: 1 vCPUs, fewer than 2' });
    expect(offeredSku(sku(), 'westus2')).toEqual({ skipped: 'Standard_D2s_v5: not in westus2' });
  });
});
