import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import { FakeClock } from '../../../clock/clock.js';
import { ManualTimers } from '../../../clock/timers.js';
import { MemoryCluster } from '../../../kube/memory/memory-cluster.js';
import type { KubeObject } from '../../../kube/object.js';
import { DaemonSets, Deployments, Jobs, Nodes, Pods, ReplicaSets } from '../../../kube/resource-types.js';
import { SeededRandom } from '../../random/random.js';
import { SimulationErrors, settleSimulation } from '../../settle/settle.js';
import { PodBinder } from '../binder/pod-binder.js';
import { KubeletSimulator, RunForAnnotation } from '../kubelet/kubelet-simulator.js';
import { simNode } from '../test-fixtures.js';
import type { DaemonSetObject } from './daemonset-controller.js';
import { type Deployment, PodTemplateHashLabel } from './deployment-controller.js';
import { type Job, JobTrackingFinalizer } from './job-controller.js';
import type { ReplicaSet } from './replicaset-controller.js';
import { WorkloadControllers } from './workload-controllers.js';

const START = Date.parse('2026-03-01T00:00:00Z');
const MIN = 60_000;

function setup() {
  const clock = new FakeClock(START);
  const timers = new ManualTimers(clock);
  const cluster = new MemoryCluster({ clock });
  const errors = new SimulationErrors();
  cluster.use(new PodBinder({ events: false }));
  cluster.use(new WorkloadControllers({ clock, timers, onError: errors.report }));
  cluster.use(
    new KubeletSimulator({
      clock,
      timers,
      random: new SeededRandom(1),
      startDelay: 2_000,
      onError: errors.report,
    }),
  );
  const settle = () => settleSimulation(cluster, errors);
  const advance = (ms: number) => timers.advance(ms, settle);
  return { clock, timers, cluster, settle, advance };
}

function deployment(
  name: string,
  replicas: number,
  cpu: string,
  extra: Partial<Deployment['spec']> = {},
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          schedulerName: 'default-scheduler',
          containers: [{ name: 'app', image: 'app:1', resources: { requests: { cpu } } }],
        },
      },
      ...extra,
    },
  };
}

async function pods(cluster: MemoryCluster, prefix = ''): Promise<Pod[]> {
  return (await cluster.list<Pod>(Pods)).items.filter((p) => (p.metadata.name ?? '').startsWith(prefix));
}

function byNode(list: readonly Pod[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of list) {
    const n = p.spec.nodeName ?? '<pending>';
    out[n] = (out[n] ?? 0) + 1;
  }
  return out;
}

describe('Deployments and ReplicaSets', () => {
  it('runs a deployment of 5 pods on 2 nodes, bound least-allocated, then Running and Ready', async () => {
    const { cluster, settle, advance } = setup();
    await cluster.create(Nodes, simNode('node-a'));
    await cluster.create(Nodes, simNode('node-b'));
    await cluster.create(Deployments, deployment('web', 5, '500m'));
    await settle();
    const [rs] = (await cluster.list<ReplicaSet>(ReplicaSets)).items;
    const hash = rs?.metadata.labels?.[PodTemplateHashLabel];
    expect(rs?.metadata.name).toBe(`web-${hash}`);
    expect(rs?.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'Deployment',
      name: 'web',
      controller: true,
    });
    expect(rs?.spec.replicas).toBe(5);
    const list = await pods(cluster, 'web-');
    expect(list).toHaveLength(5);
    // Created in name order, each bound to the emptier node: a, b, a, b, a.
    expect(list.map((p) => p.spec.nodeName)).toEqual(['node-a', 'node-b', 'node-a', 'node-b', 'node-a']);
    for (const p of list) {
      expect(p.metadata.labels).toEqual({ app: 'web', [PodTemplateHashLabel]: hash });
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicaSet', name: rs?.metadata.name });
      expect(p.status?.phase).toBe('Pending');
    }
    await advance(2_000);
    for (const p of await pods(cluster, 'web-')) {
      expect(p.status?.phase).toBe('Running');
      expect(p.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    }
    const d = await cluster.get<Deployment>(Deployments, { name: 'web', namespace: 'default' });
    expect(d.status).toMatchObject({
      replicas: 5,
      readyReplicas: 5,
      availableReplicas: 5,
      updatedReplicas: 5,
    });
  });

  it('recreates an evicted pod, which stays pending when nothing has room', async () => {
    const { cluster, settle, advance } = setup();
    await cluster.create(Nodes, simNode('node-a', { cpu: '1500m' }));
    await cluster.create(Nodes, simNode('node-b', { cpu: '1500m' }));
    await cluster.create(Deployments, deployment('web', 5, '500m'));
    await settle();
    await advance(2_000);
    expect(byNode(await pods(cluster, 'web-'))).toEqual({ 'node-a': 3, 'node-b': 2 });
    // Drain node-a: cordon, then evict its pods one by one.
    await cluster.patch(Nodes, { name: 'node-a' }, { spec: { unschedulable: true } });
    const onA = (await pods(cluster, 'web-')).filter((p) => p.spec.nodeName === 'node-a');
    await cluster.evict({ name: onA[0]!.metadata.name!, namespace: 'default' });
    await settle();
    expect(byNode(await pods(cluster, 'web-'))).toEqual({ 'node-a': 2, 'node-b': 3 });
    await cluster.evict({ name: onA[1]!.metadata.name!, namespace: 'default' });
    await settle();
    const after = await pods(cluster, 'web-');
    expect(after).toHaveLength(5);
    expect(byNode(after)).toEqual({ 'node-a': 1, 'node-b': 3, '<pending>': 1 });
    const pending = after.find((p) => p.spec.nodeName === undefined)!;
    expect(pending.metadata.name).not.toBe(onA[1]!.metadata.name);
    expect(pending.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
      message: '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable.',
    });
    const rs = (await cluster.list<ReplicaSet>(ReplicaSets)).items[0]!;
    // The first replacement is bound to node-b but has not started yet.
    expect(rs.status).toMatchObject({ replicas: 5, readyReplicas: 3 });
    await advance(2_000);
    expect((await cluster.list<ReplicaSet>(ReplicaSets)).items[0]?.status).toMatchObject({
      readyReplicas: 4,
    });
  });

  it('scales down pending pods first and scales back up', async () => {
    const { cluster, settle, advance } = setup();
    await cluster.create(Nodes, simNode('node-a', { cpu: '1' }));
    await cluster.create(Deployments, deployment('web', 4, '500m'));
    await settle();
    await advance(2_000);
    expect(byNode(await pods(cluster, 'web-'))).toEqual({ 'node-a': 2, '<pending>': 2 });
    await cluster.patch(Deployments, { name: 'web', namespace: 'default' }, { spec: { replicas: 2 } });
    await settle();
    expect(byNode(await pods(cluster, 'web-'))).toEqual({ 'node-a': 2 });
    await cluster.patch(Deployments, { name: 'web', namespace: 'default' }, { spec: { replicas: 3 } });
    await settle();
    expect(byNode(await pods(cluster, 'web-'))).toEqual({ 'node-a': 2, '<pending>': 1 });
  });

  it('rolls a template change out to a new ReplicaSet and scales the old one to zero', async () => {
    const { cluster, settle, advance } = setup();
    await cluster.create(Nodes, simNode('node-a', { cpu: '16' }));
    await cluster.create(Deployments, deployment('web', 4, '500m'));
    await settle();
    await advance(2_000);
    const oldRs = (await cluster.list<ReplicaSet>(ReplicaSets)).items[0]!;
    await cluster.patch(
      Deployments,
      { name: 'web', namespace: 'default' },
      {
        spec: {
          template: {
            spec: { containers: [{ name: 'app', image: 'app:2', resources: { requests: { cpu: '500m' } } }] },
          },
        },
      },
    );
    await settle();
    // maxSurge 1, maxUnavailable 1: one old pod goes and two new ones come (5 = 4 + surge),
    // keeping 3 available while none of the new is ready.
    const during = await pods(cluster, 'web-');
    const oldHash = oldRs.metadata.labels?.[PodTemplateHashLabel];
    expect(during.filter((p) => p.metadata.labels?.[PodTemplateHashLabel] === oldHash)).toHaveLength(3);
    expect(during).toHaveLength(5);
    for (let i = 0; i < 6; i++) await advance(2_000);
    const sets = (await cluster.list<ReplicaSet>(ReplicaSets)).items;
    expect(sets).toHaveLength(2);
    const newRs = sets.find((rs) => rs.metadata.name !== oldRs.metadata.name)!;
    expect(newRs.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(sets.find((rs) => rs.metadata.name === oldRs.metadata.name)?.spec.replicas).toBe(0);
    const final = await pods(cluster, 'web-');
    expect(final).toHaveLength(4);
    for (const p of final) {
      expect(p.metadata.labels?.[PodTemplateHashLabel]).toBe(newRs.metadata.labels?.[PodTemplateHashLabel]);
      expect(p.status?.phase).toBe('Running');
    }
  });
});

function job(name: string, spec: Partial<Job['spec']>, runFor = '10m'): Job {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace: 'default' },
    spec: {
      template: {
        metadata: { annotations: { [RunForAnnotation]: runFor } },
        spec: {
          schedulerName: 'default-scheduler',
          restartPolicy: 'Never',
          containers: [{ name: 'work', resources: { requests: { cpu: '500m' } } }],
        },
      },
      ...spec,
    },
  };
}

describe('Jobs', () => {
  it('runs pods to completion after their run-for duration and completes', async () => {
    const { cluster, settle, advance } = setup();
    await cluster.create(Nodes, simNode('node-a'));
    await cluster.create(Jobs, job('batch', { completions: 3, parallelism: 2, ttlSecondsAfterFinished: 60 }));
    await settle();
    const first = await pods(cluster, 'batch-');
    expect(first).toHaveLength(2);
    expect(first[0]?.metadata.labels?.['batch.kubernetes.io/job-name']).toBe('batch');
    expect(first[0]?.metadata.finalizers).toEqual([JobTrackingFinalizer]);
    await advance(2_000 + 10 * MIN - 1);
    expect((await pods(cluster, 'batch-')).map((p) => p.status?.phase)).toEqual(['Running', 'Running']);
    await advance(1);
    const second = await pods(cluster, 'batch-');
    expect(second.map((p) => p.status?.phase).sort()).toEqual(['Pending', 'Succeeded', 'Succeeded']);
    for (const p of second.filter((x) => x.status?.phase === 'Succeeded'))
      expect(p.metadata.finalizers ?? []).toEqual([]);
    let j = await cluster.get<Job>(Jobs, { name: 'batch', namespace: 'default' });
    expect(j.status).toMatchObject({ active: 1, succeeded: 2, failed: 0 });
    // The third pod was created at 10:02, started at 10:04 and finishes at 20:04.
    await advance(2_000 + 10 * MIN);
    j = await cluster.get<Job>(Jobs, { name: 'batch', namespace: 'default' });
    expect(j.status).toMatchObject({
      active: 0,
      succeeded: 3,
      failed: 0,
      completionTime: '2026-03-01T00:20:04Z',
    });
    expect(j.status?.conditions?.map((c) => [c.type, c.status])).toEqual([['Complete', 'True']]);
    // ttlSecondsAfterFinished: the Job and (by garbage collection) its pods go a minute later.
    await advance(MIN);
    expect((await cluster.list(Jobs)).items).toEqual([]);
    expect(await pods(cluster, 'batch-')).toEqual([]);
  });

  it('counts pods deleted before succeeding as failures, replaces them, and fails past backoffLimit', async () => {
    const { cluster, settle, advance } = setup();
    await cluster.create(Nodes, simNode('node-a'));
    await cluster.create(Jobs, job('flaky', { backoffLimit: 1 }));
    await settle();
    await advance(2_000);
    for (let round = 1; round <= 2; round++) {
      const [running] = (await pods(cluster, 'flaky-')).filter(
        (p) => p.metadata.deletionTimestamp === undefined,
      );
      await cluster.evict({ name: running!.metadata.name!, namespace: 'default' });
      await settle();
      const j = await cluster.get<Job>(Jobs, { name: 'flaky', namespace: 'default' });
      expect(j.status?.failed).toBe(round);
    }
    const j = await cluster.get<Job>(Jobs, { name: 'flaky', namespace: 'default' });
    expect(j.status?.conditions).toMatchObject([
      { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' },
    ]);
    expect(j.status?.active).toBe(0);
    expect(await pods(cluster, 'flaky-')).toEqual([]);
  });

  it('does not lose a success when the finished pod is deleted with its node', async () => {
    // The first pod succeeds at 1 min; its successor is bound to the same node, which then goes:
    // the successor fails (deleted before succeeding), the success stays counted.
    const { cluster, settle, advance } = setup();
    await cluster.create(Nodes, simNode('node-a'));
    await cluster.create(Jobs, job('one', { completions: 2, parallelism: 1 }, '1m'));
    await settle();
    await advance(2_000 + MIN);
    await cluster.delete(Nodes, { name: 'node-a' });
    await cluster.create(Nodes, simNode('node-b'));
    await settle();
    await advance(2_000 + MIN);
    const j = await cluster.get<Job>(Jobs, { name: 'one', namespace: 'default' });
    expect(j.status).toMatchObject({ succeeded: 2, failed: 1, active: 0 });
    expect(j.status?.conditions?.[0]?.type).toBe('Complete');
    expect((await pods(cluster, 'one-')).map((p) => p.status?.phase)).toEqual(['Succeeded']);
  });
});

function daemonSet(name: string, spec: Partial<Pod['spec']> = {}): DaemonSetObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'kube-system' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name: 'agent', resources: { requests: { cpu: '100m' } } }],
          ...spec,
        } as Pod['spec'],
      },
    },
  };
}

describe('DaemonSets', () => {
  it('binds one pod directly to each eligible node and follows nodes coming, going and tainted', async () => {
    const { cluster, settle, advance } = setup();
    await cluster.create(Nodes, simNode('node-a', { labels: { pool: 'general' } }));
    await cluster.create(Nodes, simNode('node-b', { labels: { pool: 'gpu' } }));
    await cluster.create(
      Nodes,
      simNode('node-c', {
        labels: { pool: 'general' },
        taints: [{ key: 'dedicated', effect: 'NoSchedule' }],
      }),
    );
    await cluster.create(DaemonSets, daemonSet('agent', { nodeSelector: { pool: 'general' } }));
    await settle();
    const agents = async () => (await pods(cluster, 'agent-')).map((p) => p.spec.nodeName).sort();
    expect(await agents()).toEqual(['node-a']);
    const [pod] = await pods(cluster, 'agent-');
    expect(pod?.spec.tolerations?.map((t) => t.key)).toContain('node.kubernetes.io/unschedulable');
    expect(
      pod?.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms,
    ).toEqual([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] }]);
    await cluster.create(Nodes, simNode('node-d', { labels: { pool: 'general' }, unschedulable: true }));
    await settle();
    expect(await agents()).toEqual(['node-a', 'node-d']);
    await cluster.patch(
      Nodes,
      { name: 'node-a' },
      { spec: { taints: [{ key: 'dedicated', effect: 'NoExecute' }] } },
    );
    await cluster.delete(Nodes, { name: 'node-d' });
    await settle();
    expect(await agents()).toEqual([]);
    await cluster.patch(Nodes, { name: 'node-c' }, { spec: { taints: null } });
    await settle();
    await advance(2_000);
    expect(await agents()).toEqual(['node-c']);
    const ds = await cluster.get<DaemonSetObject>(DaemonSets, { name: 'agent', namespace: 'kube-system' });
    expect(ds.status).toMatchObject({ desiredNumberScheduled: 1, currentNumberScheduled: 1, numberReady: 1 });
  });
});

describe('garbage collection through owners', () => {
  it('deletes a deployment with its ReplicaSets and pods', async () => {
    const { cluster, settle } = setup();
    await cluster.create(Nodes, simNode('node-a'));
    await cluster.create(Deployments, deployment('web', 2, '100m'));
    await settle();
    expect(await pods(cluster, 'web-')).toHaveLength(2);
    await cluster.delete<KubeObject>(Deployments, { name: 'web', namespace: 'default' });
    await settle();
    expect((await cluster.list(ReplicaSets)).items).toEqual([]);
    expect(await pods(cluster, 'web-')).toEqual([]);
  });
});
