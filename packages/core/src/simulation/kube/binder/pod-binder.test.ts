import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import { FakeClock } from '../../../clock/clock.js';
import { ManualTimers } from '../../../clock/timers.js';
import { MemoryCluster } from '../../../kube/memory/memory-cluster.js';
import { Events, Nodes, Pods } from '../../../kube/resource-types.js';
import { simNode, simPod } from '../test-fixtures.js';
import { PodBinder } from './pod-binder.js';

const START = Date.parse('2026-03-01T00:00:00Z');

function setup() {
  const clock = new FakeClock(START);
  const cluster = new MemoryCluster({ clock });
  const stop = cluster.use(new PodBinder());
  return { clock, cluster, stop };
}

/** A binder with kube-scheduler's backoff (1 s doubling to at most 4 s here) on manual timers. */
function setupWithBackoff() {
  const clock = new FakeClock(START);
  const timers = new ManualTimers(clock);
  const cluster = new MemoryCluster({ clock });
  const stop = cluster.use(
    new PodBinder({ events: false, backoff: { timers, initialMs: 1_000, maxMs: 4_000 } }),
  );
  const advance = (ms: number) => timers.advance(ms, () => cluster.settled());
  return { clock, timers, cluster, stop, advance };
}

async function placements(cluster: MemoryCluster): Promise<Record<string, string | undefined>> {
  const pods = await cluster.list<Pod>(Pods);
  return Object.fromEntries(pods.items.map((p) => [p.metadata.name, p.spec.nodeName]));
}

async function scheduledCondition(cluster: MemoryCluster, name: string) {
  const pod = await cluster.get<Pod>(Pods, { name, namespace: 'default' });
  return pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
}

describe('PodBinder', () => {
  it('binds pending pods to the least allocated node, one after another', async () => {
    const { cluster } = setup();
    await cluster.create(Nodes, simNode('node-a'));
    await cluster.create(Nodes, simNode('node-b'));
    for (let i = 1; i <= 5; i++)
      await cluster.create(Pods, simPod(`web-${i}`, { cpu: '500m', memory: '512Mi' }));
    await cluster.settled();
    expect(await placements(cluster)).toEqual({
      'web-1': 'node-a',
      'web-2': 'node-b',
      'web-3': 'node-a',
      'web-4': 'node-b',
      'web-5': 'node-a',
    });
    expect(await scheduledCondition(cluster, 'web-1')).toMatchObject({ status: 'True' });
    const events = await cluster.list<{ reason: string; message: string } & Pod>(Events);
    expect(events.items.filter((e) => e.reason === 'Scheduled').map((e) => e.message)).toContain(
      'Successfully assigned default/web-2 to node-b',
    );
  });

  it('marks pods that fit nowhere Unschedulable and retries when a node arrives', async () => {
    const { cluster } = setup();
    await cluster.create(Nodes, simNode('small', { cpu: '1' }));
    await cluster.create(
      Nodes,
      simNode('gpu', { cpu: '8', taints: [{ key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' }] }),
    );
    await cluster.create(Pods, simPod('big', { cpu: '2' }));
    await cluster.settled();
    expect(await scheduledCondition(cluster, 'big')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message:
        '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {nvidia.com/gpu: true}.',
    });
    const events = await cluster.list<{ reason: string; type: string } & Pod>(Events);
    expect(events.items.filter((e) => e.reason === 'FailedScheduling').map((e) => e.type)).toEqual([
      'Warning',
    ]);
    await cluster.create(Nodes, simNode('large', { cpu: '4' }));
    await cluster.settled();
    expect((await placements(cluster)).big).toBe('large');
    expect(await scheduledCondition(cluster, 'big')).toMatchObject({ status: 'True' });
  });

  it('retries parked pods when a bound pod goes away or a node is uncordoned', async () => {
    const { cluster } = setup();
    await cluster.create(Nodes, simNode('only', { cpu: '2' }));
    await cluster.create(Pods, simPod('first', { cpu: '1500m' }));
    await cluster.settled();
    await cluster.create(Pods, simPod('second', { cpu: '1500m' }));
    await cluster.settled();
    expect(await placements(cluster)).toEqual({ first: 'only', second: undefined });
    await cluster.delete(Pods, { name: 'first', namespace: 'default' });
    await cluster.settled();
    expect(await placements(cluster)).toEqual({ second: 'only' });

    await cluster.patch(Nodes, { name: 'only' }, { spec: { unschedulable: true } });
    await cluster.create(Pods, simPod('third', { cpu: '100m' }));
    await cluster.settled();
    expect(await scheduledCondition(cluster, 'third')).toMatchObject({
      reason: 'Unschedulable',
      message: '0/1 nodes are available: 1 node(s) were unschedulable.',
    });
    await cluster.patch(Nodes, { name: 'only' }, { spec: { unschedulable: false } });
    await cluster.settled();
    expect((await placements(cluster)).third).toBe('only');
  });

  it('gives replicas of one template the same failure, and a fresh one once the cluster changed', async () => {
    const { cluster } = setup();
    await cluster.create(Nodes, simNode('small', { cpu: '1' }));
    for (const name of ['r-1', 'r-2', 'r-3']) await cluster.create(Pods, simPod(name, { cpu: '2' }));
    await cluster.settled();
    for (const name of ['r-1', 'r-2', 'r-3'])
      expect(await scheduledCondition(cluster, name)).toMatchObject({
        reason: 'Unschedulable',
        message: '0/1 nodes are available: 1 Insufficient cpu.',
      });
    // Room for two: the third must be judged against the new node and the pods now on it.
    await cluster.create(Nodes, simNode('large', { cpu: '4' }));
    await cluster.settled();
    expect(await placements(cluster)).toEqual({ 'r-1': 'large', 'r-2': 'large', 'r-3': undefined });
    expect(await scheduledCondition(cluster, 'r-3')).toMatchObject({
      reason: 'Unschedulable',
      message: '0/2 nodes are available: 2 Insufficient cpu.',
    });
    await cluster.delete(Pods, { name: 'r-1', namespace: 'default' });
    await cluster.settled();
    expect((await placements(cluster))['r-3']).toBe('large');
  });

  it('leaves pods of other schedulers alone and holds gated pods until their gates are gone', async () => {
    const { cluster } = setup();
    await cluster.create(Nodes, simNode('n'));
    await cluster.create(Pods, simPod('custom', { spec: { schedulerName: 'my-scheduler' } }));
    await cluster.create(
      Pods,
      simPod('gated', { spec: { schedulingGates: [{ name: 'wait' }] } as Partial<Pod['spec']> }),
    );
    await cluster.settled();
    expect(await placements(cluster)).toEqual({ custom: undefined, gated: undefined });
    expect(await scheduledCondition(cluster, 'custom')).toBeUndefined();
    expect(await scheduledCondition(cluster, 'gated')).toMatchObject({
      status: 'False',
      reason: 'SchedulingGated',
    });
    await cluster.patch(Pods, { name: 'gated', namespace: 'default' }, { spec: { schedulingGates: null } });
    await cluster.settled();
    expect((await placements(cluster)).gated).toBe('n');
  });

  it('with backoff, tries a failed pod again only once its backoff is over, however many nodes arrive', async () => {
    const { cluster, advance } = setupWithBackoff();
    await cluster.create(Nodes, simNode('small', { cpu: '1' }));
    await cluster.create(Pods, simPod('big', { cpu: '2' }));
    await cluster.settled(); // failure 1: backoff 1 s
    const first = await scheduledCondition(cluster, 'big');
    expect(first).toMatchObject({ status: 'False', message: '0/1 nodes are available: 1 Insufficient cpu.' });
    // Nodes that would not fit it either: without backoff each one is an attempt and a new message.
    await cluster.create(Nodes, simNode('small-2', { cpu: '1' }));
    await cluster.create(Nodes, simNode('small-3', { cpu: '1' }));
    await cluster.settled();
    expect(await scheduledCondition(cluster, 'big')).toEqual(first);
    await advance(999);
    expect(await scheduledCondition(cluster, 'big')).toEqual(first);
    await advance(1); // failure 2, against all three nodes: backoff 2 s
    expect((await scheduledCondition(cluster, 'big'))?.message).toBe(
      '0/3 nodes are available: 3 Insufficient cpu.',
    );
    await cluster.create(Nodes, simNode('large', { cpu: '4' }));
    await cluster.settled();
    expect((await placements(cluster)).big).toBeUndefined();
    await advance(1_999);
    expect((await placements(cluster)).big).toBeUndefined();
    await advance(1);
    expect((await placements(cluster)).big).toBe('large');
  });

  it('with backoff, doubles the wait per failure up to its maximum, and a pod not blocked by one is tried at once', async () => {
    const { cluster, advance, clock } = setupWithBackoff();
    await cluster.create(Nodes, simNode('small', { cpu: '1' }));
    await cluster.create(Pods, simPod('big', { cpu: '2' }));
    await cluster.settled();
    const failures: number[] = [clock.now() - START];
    // A node change after every failure, so the pod is retried as soon as its backoff allows.
    for (let i = 0; i < 4; i++) {
      const before = (await scheduledCondition(cluster, 'big'))?.message;
      await cluster.create(Nodes, simNode(`tiny-${i}`, { cpu: '1' }));
      await cluster.settled();
      while ((await scheduledCondition(cluster, 'big'))?.message === before) await advance(250);
      failures.push(clock.now() - START);
    }
    expect(failures).toEqual([0, 1_000, 3_000, 7_000, 11_000]);
    // A pod created now has failed nothing and is tried on the spot.
    await cluster.create(Pods, simPod('small-pod', { cpu: '500m' }));
    await cluster.settled();
    expect((await placements(cluster))['small-pod']).toBeDefined();
  });

  it('stops binding once stopped', async () => {
    const { cluster, stop } = setup();
    stop();
    await cluster.create(Nodes, simNode('n'));
    await cluster.create(Pods, simPod('p'));
    await cluster.settled();
    expect((await placements(cluster)).p).toBeUndefined();
  });
});
