import { renderCustomData } from '@nodewright/azure';
import type { MockInstance } from '@nodewright/conformance/harness';
import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { describe, expect, it } from 'vitest';
import { type ArmResource, ArmState } from '../arm/state.js';
import { armMockInstanceSource, kubeletFlagsOf, PollMs, toMockInstance } from './mock-instances.js';

const Sub = '11111111-2222-3333-4444-555555555555';
const RG = 'MC_rg_cluster_eastus';

/** A VM as the mock stores it after a PUT, in the given provisioning state. */
function vm(
  name: string,
  props: { size: string; priority?: 'Regular' | 'Spot'; zone?: string; state?: string; diskGB?: number },
): ArmResource {
  return {
    id: `/subscriptions/${Sub}/resourceGroups/${RG}/providers/Microsoft.Compute/virtualMachines/${name}`,
    name,
    type: 'Microsoft.Compute/virtualMachines',
    location: 'eastus',
    ...(props.zone !== undefined ? { zones: [props.zone] } : {}),
    properties: {
      hardwareProfile: { vmSize: props.size },
      priority: props.priority ?? 'Regular',
      provisioningState: props.state ?? 'Succeeded',
      timeCreated: '2026-12-04T10:00:00.000Z',
      storageProfile: { osDisk: { diskSizeGB: props.diskGB ?? 128 } },
    },
  };
}

/** Custom data as the provider's launcher renders it. */
const customData = renderCustomData({
  clusterName: 'c1',
  labels: { 'karpenter.sh/nodepool': 'gpu', 'team/name': "o'brien", 'karpenter.sh/capacity-type': 'spot' },
  taints: [
    { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
    { key: 'startup', effect: 'NoExecute' },
  ],
  maxPods: 30,
});

describe('the ARM mock VM as the kubelet harness boots it', () => {
  it("reads the kubelet flags back from the launcher's custom data, quoting included", () => {
    expect(kubeletFlagsOf(customData)).toMatchObject({
      'node-labels': "karpenter.sh/capacity-type=spot,karpenter.sh/nodepool=gpu,team/name=o'brien",
      'register-with-taints': 'nvidia.com/gpu=true:NoSchedule,startup:NoExecute',
      'max-pods': '30',
    });
    expect(kubeletFlagsOf(undefined)).toEqual({});
  });

  it('a Spot GPU VM: AKS providerID, zone, capacity from its size and disk, labels and taints from custom data', () => {
    const m = toMockInstance(
      vm('aks-gpu-1', { size: 'Standard_NC4as_T4_v3', priority: 'Spot', zone: '2', diskGB: 256 }),
      customData,
      Sub,
    );
    expect(m).toEqual({
      providerID: `azure:///subscriptions/${Sub}/resourceGroups/${RG}/providers/Microsoft.Compute/virtualMachines/aks-gpu-1`,
      nodeName: 'aks-gpu-1',
      instanceType: 'Standard_NC4as_T4_v3',
      zone: 'eastus-2',
      capacityType: 'spot',
      architecture: 'amd64',
      capacity: {
        cpu: '4',
        memory: `${28 * 1024}Mi`,
        pods: '30',
        'ephemeral-storage': '256Gi',
        'nvidia.com/gpu': '1',
      },
      labels: {
        'karpenter.sh/capacity-type': 'spot',
        'karpenter.sh/nodepool': 'gpu',
        'team/name': "o'brien",
      },
      taints: [
        { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
        { key: 'startup', effect: 'NoExecute' },
      ],
      state: 'running',
      launchedAt: Date.parse('2026-12-04T10:00:00.000Z'),
    });
  });

  it('an Arm VM in a region without zones, matched case-insensitively to its size; provisioning states map to instance states', () => {
    const m = toMockInstance(vm('aks-arm', { size: 'standard_d4ps_v5', state: 'Creating' }), undefined, Sub);
    expect(m).toMatchObject({
      instanceType: 'Standard_D4ps_v5',
      zone: '0',
      capacityType: 'on-demand',
      architecture: 'arm64',
      capacity: { cpu: '4', memory: `${16 * 1024}Mi` },
      labels: {},
      state: 'pending',
    });
    expect(m.taints).toBeUndefined();
    expect(m.capacity['nvidia.com/gpu']).toBeUndefined();
    expect(
      toMockInstance(vm('a', { size: 'Standard_D2s_v5', state: 'Deleting' }), undefined, Sub).state,
    ).toBe('stopping');
    expect(toMockInstance(vm('a', { size: 'Standard_D2s_v5', state: 'Failed' }), undefined, Sub).state).toBe(
      'terminated',
    );
  });

  it('refuses a VM of a size it has no facts for', () => {
    expect(() => toMockInstance(vm('x', { size: 'Standard_Z99' }), undefined, Sub)).toThrow(
      /unknown size Standard_Z99/,
    );
  });
});

describe('armMockInstanceSource', () => {
  it('reports each provisioning-state change once, a Failed VM not at all, and terminated once a VM is gone', async () => {
    const clock = new FakeClock(0);
    const timers = new ManualTimers(clock);
    const state = new ArmState();
    const source = armMockInstanceSource({ state, timers, subscriptionId: Sub });
    const key = ArmState.key(RG, 'aks-a');
    state.vms.set(key, vm('aks-a', { size: 'Standard_D2s_v5', state: 'Creating', zone: '1' }));
    state.vms.set(
      ArmState.key(RG, 'aks-failed'),
      vm('aks-failed', { size: 'Standard_D2s_v5', state: 'Failed' }),
    );
    const seen: MockInstance[] = [];
    const stop = source.watch((i) => seen.push(i));
    expect(seen.map((i) => [i.nodeName, i.state])).toEqual([['aks-a', 'pending']]);
    await timers.advance(PollMs);
    expect(seen).toHaveLength(1);
    (state.vms.get(key)!.properties as { provisioningState: string }).provisioningState = 'Succeeded';
    await timers.advance(PollMs);
    state.vms.delete(key);
    await timers.advance(PollMs);
    expect(seen.map((i) => [i.nodeName, i.state])).toEqual([
      ['aks-a', 'pending'],
      ['aks-a', 'running'],
      ['aks-a', 'terminated'],
    ]);
    stop();
    expect(timers.pending()).toBe(0);
  });
});
