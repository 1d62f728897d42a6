import { SystemClock } from '@nodewright/core/clock';
import type { InterruptionNotice, InterruptionSource } from '@nodewright/core/cloudprovider';
import { MemoryCluster, Nodes } from '@nodewright/core/kube';
import { describe, expect, it } from 'vitest';
import { InterruptionSources, ScheduledEventWatcher, scheduledEventNotices } from './scheduled-events.js';

const providerID =
  'azure:///subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/mc/providers/Microsoft.Compute/virtualMachines/aks-a';

const node = (conditions: object[], name = 'aks-a') => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: {
    name,
    labels: {
      'node.kubernetes.io/instance-type': 'Standard_D2ps_v5',
      'topology.kubernetes.io/zone': 'eastus-2',
      'karpenter.sh/capacity-type': 'spot',
    },
  },
  spec: { providerID },
  status: { conditions },
});

const preempt = {
  type: 'PreemptScheduled',
  status: 'True',
  message: 'NotBefore Fri, 04 Dec 2026 12:00:30 GMT',
  lastTransitionTime: '2026-12-04T12:00:00Z',
};

describe('scheduledEventNotices', () => {
  it('a Preempt is a spot interruption of the node offering', () => {
    expect(scheduledEventNotices(node([preempt]))).toEqual([
      {
        id: 'scheduled/aks-a/PreemptScheduled/2026-12-04T12:00:00Z',
        kind: 'SpotInterruption',
        providerID,
        offering: { capacityType: 'spot', instanceType: 'Standard_D2ps_v5', zone: 'eastus-2' },
        message: 'Azure scheduled event Preempt on node aks-a: NotBefore Fri, 04 Dec 2026 12:00:30 GMT',
      },
    ]);
  });

  it('Reboot and Redeploy are scheduled maintenance without an offering; False and other conditions are nothing', () => {
    const notices = scheduledEventNotices(
      node([
        { type: 'RebootScheduled', status: 'True' },
        { type: 'RedeployScheduled', status: 'True' },
        { type: 'PreemptScheduled', status: 'False' },
        { type: 'FrequentKubeletRestart', status: 'True' },
        { type: 'Ready', status: 'True' },
      ]),
    );
    expect(notices.map((n) => [n.kind, n.offering])).toEqual([
      ['ScheduledMaintenance', undefined],
      ['ScheduledMaintenance', undefined],
    ]);
  });

  it('a Node without a providerID is not interrupted', () => {
    expect(scheduledEventNotices({ ...node([preempt]), spec: {} })).toEqual([]);
  });
});

describe('ScheduledEventWatcher', () => {
  it('returns a notice until acknowledged, and a new one when the event comes again', async () => {
    const cluster = new MemoryCluster({ clock: new SystemClock() });
    await cluster.create(Nodes, node([preempt]) as never);
    const watcher = new ScheduledEventWatcher(cluster);
    const [first] = await watcher.receive();
    expect(first?.kind).toBe('SpotInterruption');
    expect((await watcher.receive()).map((n) => n.id)).toEqual([first!.id]);
    await watcher.acknowledge(first!);
    expect(await watcher.receive()).toEqual([]);
    await cluster.patchStatus(Nodes, { name: 'aks-a' }, {
      status: { conditions: [{ ...preempt, lastTransitionTime: '2026-12-04T13:00:00Z' }] },
    } as never);
    expect((await watcher.receive()).map((n) => n.id)).toEqual([
      'scheduled/aks-a/PreemptScheduled/2026-12-04T13:00:00Z',
    ]);
  });
});

describe('InterruptionSources', () => {
  it('returns the notices of every source and acknowledges each with its own source', async () => {
    const acked: string[] = [];
    const source = (id: string): InterruptionSource => ({
      receive: async () =>
        [{ id, kind: 'ScheduledMaintenance', providerID, message: id }] as InterruptionNotice[],
      acknowledge: async (n) => {
        acked.push(`${id}:${n.id}`);
      },
    });
    const all = new InterruptionSources([source('a'), source('b')]);
    const notices = await all.receive();
    expect(notices.map((n) => n.id)).toEqual(['a', 'b']);
    await all.receive();
    for (const n of notices) await all.acknowledge(n);
    expect(acked).toEqual(['a:a', 'b:b']);
  });
});
