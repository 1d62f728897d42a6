import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import { FakeClock } from '../../../clock/clock.js';
import { ManualTimers } from '../../../clock/timers.js';
import { MemoryCluster } from '../../../kube/memory/memory-cluster.js';
import { Nodes, Pods } from '../../../kube/resource-types.js';
import { SeededRandom } from '../../random/random.js';
import { SimulationErrors, settleSimulation } from '../../settle/settle.js';
import { simNode, simPod } from '../test-fixtures.js';
import { KubeletSimulator, type KubeletSimulatorOptions, RunForAnnotation } from './kubelet-simulator.js';

const START = Date.parse('2026-03-01T00:00:00Z');

function setup(options: Partial<KubeletSimulatorOptions> = {}, gracefulPodDeletion = false) {
  const clock = new FakeClock(START);
  const timers = new ManualTimers(clock);
  const cluster = new MemoryCluster({ clock, gracefulPodDeletion });
  const errors = new SimulationErrors();
  cluster.use(
    new KubeletSimulator({ clock, timers, random: new SeededRandom(3), onError: errors.report, ...options }),
  );
  const settle = () => settleSimulation(cluster, errors);
  return { clock, timers, cluster, settle, advance: (ms: number) => timers.advance(ms, settle) };
}

async function pod(cluster: MemoryCluster, name: string): Promise<Pod | undefined> {
  return (await cluster.list<Pod>(Pods)).items.find((p) => p.metadata.name === name);
}

function condition(p: Pod | undefined, type: string): string | undefined {
  return p?.status?.conditions?.find((c) => c.type === type)?.status;
}

describe('KubeletSimulator', () => {
  it('starts bound pods after the start delay and makes them Ready after the ready delay', async () => {
    const { cluster, settle, advance } = setup({ startDelay: 3_000, readyDelay: 5_000 });
    await cluster.create(Nodes, simNode('n'));
    await cluster.create(Pods, simPod('p', { nodeName: 'n' }));
    await cluster.create(Pods, simPod('unbound'));
    await settle();
    await advance(2_999);
    expect((await pod(cluster, 'p'))?.status?.phase).toBe('Pending');
    await advance(1);
    const running = await pod(cluster, 'p');
    expect(running?.status).toMatchObject({ phase: 'Running', startTime: '2026-03-01T00:00:03Z' });
    expect(condition(running, 'Ready')).toBe('False');
    expect(condition(running, 'PodScheduled')).toBe('True');
    await advance(5_000);
    const ready = await pod(cluster, 'p');
    expect(condition(ready, 'Ready')).toBe('True');
    expect(ready?.status?.containerStatuses).toMatchObject([{ name: 'app', ready: true, started: true }]);
    expect((await pod(cluster, 'unbound'))?.status?.phase).toBe('Pending');
  });

  it('waits for the node to exist before starting a pod', async () => {
    const { cluster, settle, advance } = setup({ startDelay: 1_000 });
    await cluster.create(Pods, simPod('early', { nodeName: 'late-node' }));
    await settle();
    await advance(10_000);
    expect((await pod(cluster, 'early'))?.status?.phase).toBe('Pending');
    await cluster.create(Nodes, simNode('late-node'));
    await settle();
    await advance(1_000);
    expect((await pod(cluster, 'early'))?.status?.phase).toBe('Running');
  });

  it('completes run-for pods that do not restart, and ignores the annotation on restartPolicy Always', async () => {
    const { cluster, settle, advance } = setup();
    await cluster.create(Nodes, simNode('n'));
    const annotations = { [RunForAnnotation]: '1m30s' };
    await cluster.create(
      Pods,
      simPod('task', {
        nodeName: 'n',
        annotations,
        spec: { restartPolicy: 'Never' } as Partial<Pod['spec']>,
      }),
    );
    await cluster.create(Pods, simPod('server', { nodeName: 'n', annotations }));
    await settle();
    await advance(0);
    await advance(89_999);
    expect((await pod(cluster, 'task'))?.status?.phase).toBe('Running');
    await advance(1);
    const done = await pod(cluster, 'task');
    expect(done?.status?.phase).toBe('Succeeded');
    expect(condition(done, 'Ready')).toBe('False');
    expect(
      (done?.status as { containerStatuses?: unknown[] } | undefined)?.containerStatuses?.[0],
    ).toMatchObject({
      state: { terminated: { exitCode: 0, reason: 'Completed' } },
    });
    await advance(3_600_000);
    expect((await pod(cluster, 'server'))?.status?.phase).toBe('Running');
  });

  it('deletes the pods of a deleted node, and pods bound to a node that never appears', async () => {
    const { cluster, settle, advance } = setup({ orphanGracePeriodMs: 40_000 });
    await cluster.create(Nodes, simNode('n'));
    await cluster.create(Pods, simPod('on-n', { nodeName: 'n' }));
    await cluster.create(Pods, simPod('orphan', { nodeName: 'ghost' }));
    await settle();
    await advance(0);
    await cluster.delete(Nodes, { name: 'n' });
    await settle();
    expect(await pod(cluster, 'on-n')).toBeUndefined();
    await advance(39_999);
    expect(await pod(cluster, 'orphan')).toBeDefined();
    await advance(1);
    expect(await pod(cluster, 'orphan')).toBeUndefined();
  });

  it('removes terminating pods after their grace period when asked to', async () => {
    const { cluster, settle, advance } = setup({ shutdown: 'grace-period' }, true);
    await cluster.create(Nodes, simNode('n'));
    await cluster.create(Pods, simPod('p', { nodeName: 'n', spec: { terminationGracePeriodSeconds: 30 } }));
    await settle();
    await advance(0);
    await cluster.delete(Pods, { name: 'p', namespace: 'default' });
    await settle();
    expect((await pod(cluster, 'p'))?.metadata.deletionTimestamp).toBe('2026-03-01T00:00:30Z');
    await advance(29_999);
    expect(await pod(cluster, 'p')).toBeDefined();
    await advance(1);
    expect(await pod(cluster, 'p')).toBeUndefined();
  });

  it('removes terminating pods at once by default', async () => {
    const { cluster, settle, advance } = setup({}, true);
    await cluster.create(Nodes, simNode('n'));
    await cluster.create(Pods, simPod('p', { nodeName: 'n' }));
    await settle();
    await advance(0);
    await cluster.delete(Pods, { name: 'p', namespace: 'default' });
    await settle();
    expect((await pod(cluster, 'p'))?.metadata.deletionTimestamp).toBeDefined();
    await advance(0);
    expect(await pod(cluster, 'p')).toBeUndefined();
  });
});
