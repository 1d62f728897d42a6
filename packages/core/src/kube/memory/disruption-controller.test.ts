import { describe, expect, it } from 'vitest';
import { DISRUPTED_POD_TIMEOUT_MS, type PodDisruptionBudgetLike } from '../disruption-budget.js';
import { formatTime, type KubeObject } from '../object.js';
import type { ResourceType } from '../resource-type.js';
import { PodDisruptionBudgets, Pods as TypedPods } from '../resource-types.js';
import { PodDisruptionBudgetStatusController } from './disruption-controller.js';
import { newCluster, podObject } from './test-fixtures.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Pods: ResourceType = TypedPods;

/** A cluster running the controller, with budget `web` (minAvailable 1 of app=web) in default. */
async function withBudget() {
  const { cluster, clock } = newCluster();
  const stop = cluster.use(new PodDisruptionBudgetStatusController());
  await cluster.create(PodDisruptionBudgets, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default' },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
  } as KubeObject);
  return { cluster, clock, stop };
}

type Cluster = Awaited<ReturnType<typeof withBudget>>['cluster'];

/** Running, Ready pods labelled app=web. */
async function addReadyPods(cluster: Cluster, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const pod = await cluster.create(Pods, podObject(name, { labels: { app: 'web' } }));
    await cluster.updateStatus(Pods, {
      ...pod,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    } as KubeObject);
  }
}

/** Adds a PodScheduled condition to a Ready pod: a status patch no budget reads. */
async function markScheduled(cluster: Cluster, name: string): Promise<void> {
  const pod = await cluster.get(Pods, { name, namespace: 'default' });
  await cluster.updateStatus(Pods, {
    ...pod,
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'PodScheduled', status: 'True' },
      ],
    },
  } as KubeObject);
}

async function budgetOf(cluster: Cluster): Promise<PodDisruptionBudgetLike> {
  return (await cluster.get(PodDisruptionBudgets, {
    name: 'web',
    namespace: 'default',
  })) as PodDisruptionBudgetLike;
}

describe('PodDisruptionBudgetStatusController', () => {
  it('keeps PDB status current as pods come, become ready and go', async () => {
    const { cluster, stop } = await withBudget();
    const status = async () =>
      (
        (await cluster.get(PodDisruptionBudgets, {
          name: 'web',
          namespace: 'default',
        })) as PodDisruptionBudgetLike
      ).status as Record<string, unknown>;
    await cluster.settled();
    expect(await status()).toMatchObject({
      expectedPods: 0,
      currentHealthy: 0,
      disruptionsAllowed: 0,
      observedGeneration: 1,
    });

    await addReadyPods(cluster, ['a', 'b']);
    await cluster.settled();
    expect(await status()).toMatchObject({
      expectedPods: 2,
      currentHealthy: 2,
      desiredHealthy: 1,
      disruptionsAllowed: 1,
      conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' }],
    });

    await cluster.evict({ name: 'a', namespace: 'default' });
    await cluster.settled();
    expect(await status()).toMatchObject({
      expectedPods: 1,
      currentHealthy: 1,
      disruptionsAllowed: 0,
      conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' }],
    });
    expect((await status()).disruptedPods).toBeUndefined();
    stop();
  });

  it('at one instant, skips pod changes a budget cannot see and still counts those it can', async () => {
    const { cluster, stop } = await withBudget();
    await addReadyPods(cluster, ['a', 'b']);
    await cluster.settled();
    const budget = () => budgetOf(cluster);
    const before = await budget();
    expect(before.status).toMatchObject({ expectedPods: 2, currentHealthy: 2, disruptionsAllowed: 1 });

    // A scheduling condition changes nothing the budget reads: its status is not rewritten.
    await markScheduled(cluster, 'a');
    await cluster.settled();
    expect((await budget()).metadata.resourceVersion).toBe(before.metadata.resourceVersion);

    // Relabelled out of the selector at the same instant: no longer counted.
    const current = await cluster.get(Pods, { name: 'a', namespace: 'default' });
    await cluster.update(Pods, { ...current, metadata: { ...current.metadata, labels: { app: 'other' } } });
    await cluster.settled();
    expect((await budget()).status).toMatchObject({
      expectedPods: 1,
      currentHealthy: 1,
      disruptionsAllowed: 0,
    });
    stop();
  });

  it('lets an approved eviction expire at a later instant even when no pod fact changed', async () => {
    const { cluster, clock, stop } = await withBudget();
    await addReadyPods(cluster, ['a', 'b']);
    await cluster.settled();
    const budget = () => budgetOf(cluster);
    // An eviction of `a` approved just now, its pod not gone yet: `a` is not counted healthy.
    const approved = await budget();
    await cluster.updateStatus(PodDisruptionBudgets, {
      ...approved,
      status: { ...approved.status, disruptedPods: { a: formatTime(clock.now()) } },
    } as KubeObject);
    await cluster.settled();
    expect((await budget()).status).toMatchObject({ currentHealthy: 1, disruptionsAllowed: 0 });

    // Past the two minutes, a patch that changes nothing the budget reads still finds the
    // approval expired: time alone changed the status.
    clock.step(DISRUPTED_POD_TIMEOUT_MS + 1000);
    await markScheduled(cluster, 'b');
    await cluster.settled();
    const after = await budget();
    expect(after.status).toMatchObject({ currentHealthy: 2, disruptionsAllowed: 1 });
    expect(after.status?.disruptedPods).toBeUndefined();
    stop();
  });
});
