import { describe, expect, it } from 'vitest';
import type { PodDisruptionBudgetLike } from '../disruption-budget.js';
import { isConflict, isInternalError, isNotFound, isTooManyRequests, type KubeError } from '../errors.js';
import type { KubeObject, OwnerReference } from '../object.js';
import type { PodLike } from '../pod.js';
import type { ResourceType } from '../resource-type.js';
import {
  Deployments,
  Namespaces,
  PodDisruptionBudgets,
  ReplicaSets,
  Pods as TypedPods,
} from '../resource-types.js';
import type { MemoryCluster } from './memory-cluster.js';
import { newCluster, podObject } from './test-fixtures.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Pods: ResourceType = TypedPods;

async function failure(promise: Promise<unknown>): Promise<KubeError> {
  try {
    await promise;
  } catch (err) {
    return err as KubeError;
  }
  throw new Error('expected the call to fail');
}

async function runningPod(
  cluster: MemoryCluster,
  name: string,
  options: {
    labels?: Record<string, string>;
    ready?: boolean;
    owner?: OwnerReference;
    namespace?: string;
  } = {},
): Promise<PodLike> {
  const created = await cluster.create(
    Pods,
    podObject(name, {
      labels: options.labels ?? { app: 'web' },
      ...(options.namespace ? { namespace: options.namespace } : {}),
      ...(options.owner ? { ownerReferences: [options.owner] } : {}),
    }),
  );
  const ready = options.ready ?? true;
  return cluster.updateStatus(Pods, {
    ...created,
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  } as KubeObject) as Promise<PodLike>;
}

async function pdb(
  cluster: MemoryCluster,
  name: string,
  spec: PodDisruptionBudgetLike['spec'],
  namespace = 'default',
): Promise<PodDisruptionBudgetLike> {
  return cluster.create(PodDisruptionBudgets, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace },
    spec,
  } as KubeObject);
}

/** A Deployment -> ReplicaSet chain; returns the owner reference its pods carry. */
async function deployment(cluster: MemoryCluster, replicas: number): Promise<OwnerReference> {
  const dep = await cluster.create(Deployments, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { replicas },
  } as KubeObject);
  const rs = await cluster.create(ReplicaSets, {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: 'web-abc',
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'web',
          uid: dep.metadata.uid as string,
          controller: true,
        },
      ],
    },
    spec: { replicas },
  } as KubeObject);
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name: 'web-abc',
    uid: rs.metadata.uid as string,
    controller: true,
  };
}

const key = (name: string) => ({ name, namespace: 'default' });
const remaining = async (cluster: MemoryCluster) =>
  (await cluster.list(Pods)).items.map((p) => p.metadata.name);

describe('evict', () => {
  it('deletes a pod no budget covers', async () => {
    const { cluster } = newCluster();
    await runningPod(cluster, 'a');
    await cluster.evict(key('a'));
    expect(await remaining(cluster)).toEqual([]);
  });

  it('answers NotFound for a missing pod', async () => {
    const { cluster } = newCluster();
    expect(isNotFound(await failure(cluster.evict(key('ghost'))))).toBe(true);
  });

  it('enforces an integer minAvailable over healthy pods', async () => {
    const { cluster } = newCluster();
    for (const n of ['a', 'b', 'c']) await runningPod(cluster, n);
    await pdb(cluster, 'web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
    await cluster.evict(key('a'));
    const err = await failure(cluster.evict(key('b')));
    expect(isTooManyRequests(err)).toBe(true);
    expect(err.code).toBe(429);
    expect(err.message).toBe("Cannot evict pod as it would violate the pod's disruption budget.");
    expect(err.details?.causes?.[0]?.message).toBe(
      'The disruption budget web needs 2 healthy pods and has 2 currently',
    );
    expect(await remaining(cluster)).toEqual(['b', 'c']);
  });

  it('does not count terminating pods as healthy', async () => {
    const { cluster } = newCluster({ gracefulPodDeletion: true });
    for (const n of ['a', 'b', 'c']) await runningPod(cluster, n);
    await pdb(cluster, 'web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
    await cluster.evict(key('a'));
    const a = (await cluster.get(Pods, key('a'))) as PodLike;
    expect(a.metadata.deletionTimestamp).toBeDefined();
    expect(a.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({
      status: 'True',
      reason: 'EvictionByEvictionAPI',
    });
    expect(isTooManyRequests(await failure(cluster.evict(key('b'))))).toBe(true);
    const budget = (await cluster.get(PodDisruptionBudgets, key('web'))) as PodDisruptionBudgetLike;
    expect(Object.keys(budget.status?.disruptedPods ?? {})).toEqual(['a']);
  });

  it('computes maxUnavailable against the owning Deployment scale', async () => {
    const { cluster } = newCluster();
    const owner = await deployment(cluster, 3);
    for (const n of ['a', 'b', 'c']) await runningPod(cluster, n, { owner });
    await pdb(cluster, 'web', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
    expect(
      cluster.disruptionStatus(
        (await cluster.get(PodDisruptionBudgets, key('web'))) as PodDisruptionBudgetLike,
      ),
    ).toEqual({
      expectedPods: 3,
      currentHealthy: 3,
      desiredHealthy: 2,
      disruptionsAllowed: 1,
    });
    await cluster.evict(key('a'));
    expect(isTooManyRequests(await failure(cluster.evict(key('b'))))).toBe(true);
  });

  it('allows nothing under maxUnavailable when pods have no controller', async () => {
    const { cluster } = newCluster();
    for (const n of ['a', 'b']) await runningPod(cluster, n);
    await pdb(cluster, 'web', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
    expect(isTooManyRequests(await failure(cluster.evict(key('a'))))).toBe(true);
  });

  it('rounds percentages up, as Kubernetes does', async () => {
    const { cluster } = newCluster();
    const owner = await deployment(cluster, 3);
    for (const n of ['a', 'b', 'c']) await runningPod(cluster, n, { owner });
    // minAvailable 50% of 3 -> 2 must stay: one eviction allowed.
    await pdb(cluster, 'min', { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } });
    await cluster.evict(key('a'));
    expect(isTooManyRequests(await failure(cluster.evict(key('b'))))).toBe(true);
    await cluster.delete(PodDisruptionBudgets, key('min'));
    // maxUnavailable 34% of 3 -> 2 may go; one is already gone, so one more.
    await pdb(cluster, 'max', { maxUnavailable: '34%', selector: { matchLabels: { app: 'web' } } });
    await cluster.evict(key('b'));
    expect(isTooManyRequests(await failure(cluster.evict(key('c'))))).toBe(true);
  });

  it('evicts unready pods while the budget is healthy, or always with AlwaysAllow', async () => {
    const { cluster } = newCluster();
    await runningPod(cluster, 'a');
    await runningPod(cluster, 'b');
    await runningPod(cluster, 'sick', { ready: false });
    await pdb(cluster, 'web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
    await cluster.evict(key('sick'));
    expect(await remaining(cluster)).toEqual(['a', 'b']);

    const { cluster: other } = newCluster();
    await runningPod(other, 'a');
    await runningPod(other, 'sick', { ready: false });
    await pdb(other, 'web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
    expect(isTooManyRequests(await failure(other.evict(key('sick'))))).toBe(true);
    await other.patch(PodDisruptionBudgets, key('web'), {
      spec: { unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    });
    await other.evict(key('sick'));
    expect(await remaining(other)).toEqual(['a']);
  });

  it('refuses with 500 when several budgets select the pod', async () => {
    const { cluster } = newCluster();
    await runningPod(cluster, 'a', { labels: { app: 'web', tier: 'front' } });
    await pdb(cluster, 'one', { maxUnavailable: 5, selector: { matchLabels: { app: 'web' } } });
    await pdb(cluster, 'two', { maxUnavailable: 5, selector: { matchLabels: { tier: 'front' } } });
    const err = await failure(cluster.evict(key('a')));
    expect(isInternalError(err)).toBe(true);
    expect(err.message).toContain('more than one PodDisruptionBudget');
  });

  it('ignores budgets for pending and terminal pods', async () => {
    const { cluster } = newCluster();
    await cluster.create(Pods, podObject('pending', { labels: { app: 'web' } }));
    const done = await runningPod(cluster, 'done');
    await cluster.updateStatus(Pods, { ...done, status: { phase: 'Succeeded' } });
    await pdb(cluster, 'web', { maxUnavailable: 0, selector: { matchLabels: { app: 'web' } } });
    await cluster.evict(key('pending'));
    await cluster.evict(key('done'));
    expect(await remaining(cluster)).toEqual([]);
  });

  it('applies only budgets of the pod namespace whose selector matches', async () => {
    const { cluster } = newCluster();
    await cluster.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    await runningPod(cluster, 'a');
    await pdb(cluster, 'elsewhere', { maxUnavailable: 0, selector: {} }, 'team');
    await pdb(cluster, 'unrelated', { maxUnavailable: 0, selector: { matchLabels: { app: 'db' } } });
    await pdb(cluster, 'no-selector', { maxUnavailable: 0 });
    await cluster.evict(key('a'));
    await runningPod(cluster, 'b');
    await pdb(cluster, 'everything', { maxUnavailable: 0, selector: {} });
    expect(isTooManyRequests(await failure(cluster.evict(key('b'))))).toBe(true);
  });

  it('checks the caller preconditions before acting', async () => {
    const { cluster } = newCluster();
    const pod = await runningPod(cluster, 'a');
    await cluster.patch(Pods, key('a'), { metadata: { labels: { moved: 'on' } } });
    const stale = { preconditions: { resourceVersion: pod.metadata.resourceVersion as string } };
    expect(isConflict(await failure(cluster.evict(key('a'), { deleteOptions: stale })))).toBe(true);
    const current = await cluster.get(Pods, key('a'));
    await cluster.evict(key('a'), {
      deleteOptions: { preconditions: { resourceVersion: current.metadata.resourceVersion as string } },
    });
    expect(await remaining(cluster)).toEqual([]);
  });
});
