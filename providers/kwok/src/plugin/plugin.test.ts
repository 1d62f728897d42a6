import { Labels } from '@nodewright/core/apis';
import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import { MemoryCluster, Nodes } from '@nodewright/core/kube';
import { createLogger, type ProviderContext } from '@nodewright/core/operator';
import { aNodeClaim, aNodePool } from '@nodewright/core/testing';
import { describe, expect, it } from 'vitest';
import { kwokNodeClassKind } from '../apis/kind.js';
import { KWOKNodeClasses } from '../apis/resource-type.js';
import { kwokProviderPlugin } from './plugin.js';

function context(settings: Record<string, string> = {}, clusterName = 'plugin-test') {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const cluster = new MemoryCluster({ clock, kinds: [KWOKNodeClasses] });
  const lines: string[] = [];
  const ctx: ProviderContext = {
    cluster,
    clock,
    timers: new ManualTimers(clock),
    logger: createLogger({ destination: { write: (line: string) => lines.push(line) } }),
    registry: {} as ProviderContext['registry'],
    events: {} as ProviderContext['events'],
    clusterName,
    settings,
    unavailableOfferings: new UnavailableOfferingsCache(clock),
  };
  return { ctx, cluster, lines };
}

const nodeClassRef = { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: 'default' };

describe('kwokProviderPlugin', () => {
  it('is named kwok, contributes KWOKNodeClass and documents its settings', () => {
    expect(kwokProviderPlugin.name).toBe('kwok');
    expect(kwokProviderPlugin.kinds).toEqual([kwokNodeClassKind]);
    expect(Object.keys(kwokProviderPlugin.settings)).toContain('insufficientCapacity');
  });

  it('refuses unknown settings, naming them', async () => {
    await expect(kwokProviderPlugin.create(context({ bogus: '1', other: '2' }).ctx)).rejects.toThrow(
      /unknown kwok provider settings bogus, other/,
    );
  });

  it('refuses a cluster name that cannot be a label value', async () => {
    await expect(kwokProviderPlugin.create(context({}, 'no spaces allowed').ctx)).rejects.toThrow(
      /--cluster-name "no spaces allowed"/,
    );
  });

  it('builds a provider whose status controller makes the NodeClass Ready, and which launches a Node', async () => {
    const { ctx, cluster, lines } = context({ insufficientCapacity: 'spot:c-4x-amd64-linux:test-zone-a' });
    const instance = await kwokProviderPlugin.create(ctx);
    expect(instance.controllers.map((c) => c.name)).toEqual(['kwoknodeclass.status']);
    expect(instance.nodeClassTypes).toEqual([KWOKNodeClasses]);
    await cluster.create(KWOKNodeClasses, {
      apiVersion: 'karpenter.kwok.sh/v1alpha1',
      kind: 'KWOKNodeClass',
      metadata: { name: 'default' },
      spec: {},
    });
    const pool = aNodePool({ spec: { template: { spec: { nodeClassRef } } } });
    expect((await instance.nodeClassReadiness!(pool)).status).toBe('Unknown');
    await instance.controllers[0]!.reconcile({ name: 'default' }, {} as never);
    expect((await instance.nodeClassReadiness!(pool)).status).toBe('True');
    const created = await instance.cloudProvider.create(
      aNodeClaim({
        metadata: { name: 'p1' },
        spec: {
          nodeClassRef,
          requirements: [{ key: Labels.CapacityType, operator: 'In', values: ['spot'] }],
          resources: { requests: { cpu: '3' } },
        },
      }),
    );
    // The cheapest 4-vCPU spot offering was faulted by the setting, so another zone was taken.
    expect(created.metadata.labels?.[Labels.InstanceType]).toBe('c-4x-amd64-linux');
    expect(created.metadata.labels?.[Labels.Zone]).not.toBe('test-zone-a');
    expect((await cluster.list(Nodes)).items.map((n) => n.metadata.name)).toEqual(['p1']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const launched = lines.map((l) => JSON.parse(l)).find((l) => l.message === 'launched KWOK instance');
    expect(launched).toMatchObject({ provider: 'kwok', 'capacity-type': 'spot', NodeClaim: { name: 'p1' } });
    await instance.close?.();
  });
});
