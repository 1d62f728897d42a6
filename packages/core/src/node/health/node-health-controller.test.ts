import { describe, expect, it } from 'vitest';
import type { RepairPolicy } from '../../cloudprovider/cloud-provider.js';
import { formatTime } from '../../kube/object.js';
import { NodeClaims, NodePools, Nodes, Pods } from '../../kube/resource-types.js';
import { EventReasons } from '../../lifecycle/events.js';
import { MetricNames } from '../../metrics/names.js';
import { NodeClaimLifecycleController } from '../../nodeclaim/lifecycle/nodeclaim-lifecycle-controller.js';
import { ControllerEnv } from '../../testing/controller-env.js';
import { lifecycleDependencies } from '../../testing/lifecycle-env.js';
import { aNode, aNodeFor } from '../../testing/node-builder.js';
import { aNodeClaimFor } from '../../testing/nodeclaim-builder.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { aRunningPod } from '../../testing/pod-builder.js';
import { NodeHealthController } from './node-health-controller.js';

const MIN = 60_000;
const policies: RepairPolicy[] = [
  { conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: 30 * MIN },
  { conditionType: 'Ready', conditionStatus: 'Unknown', tolerationDurationMs: 30 * MIN },
];

/** A pool of `size` initialized nodes `default-0..`, each with its claim, and node.health running. */
async function pool(size: number, repairPolicies: readonly RepairPolicy[] = policies) {
  const env = new ControllerEnv({ cloudProvider: { repairPolicies } });
  const deps = lifecycleDependencies(env);
  await env.start(new NodeClaimLifecycleController(deps), new NodeHealthController(deps));
  const nodePool = await env.cluster.create(NodePools, aNodePool());
  const names = Array.from({ length: size }, (_, i) => `default-${i}`);
  for (const name of names)
    await env.cluster.create(NodeClaims, aNodeClaimFor(nodePool, { metadata: { name } }));
  await env.settle();
  for (const name of names) await env.cluster.create(Nodes, aNodeFor((await env.find(NodeClaims, name))!));
  await env.settle();
  const setReady = async (name: string, status: 'True' | 'False' | 'Unknown') => {
    await env.cluster.patchStatus(
      Nodes,
      { name },
      {
        status: {
          conditions: [
            { type: 'Ready', status, reason: 'Test', lastTransitionTime: formatTime(env.clock.now()) },
          ],
        },
      },
    );
    await env.settle();
  };
  const deleting = async () =>
    (await env.cluster.list(NodeClaims)).items
      .filter((c) => c.metadata.deletionTimestamp !== undefined)
      .map((c) => c.metadata.name);
  return { env, names, setReady, deleting };
}

describe('node.health', () => {
  it('deletes the claim of a node NotReady past its toleration, with events and the unhealthy metric', async () => {
    const { env, setReady, deleting } = await pool(5);
    for (const name of ['web-0', 'web-1'])
      await env.cluster.create(Pods, aRunningPod('default-1', { metadata: { name } }));
    await env.cluster.create(
      Pods,
      aRunningPod('default-1', {
        metadata: {
          name: 'agent',
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'ds-uid', controller: true },
          ],
        },
      }),
    );
    await setReady('default-1', 'False');
    await env.advance(30 * MIN - 1000);
    expect(await deleting()).toEqual([]);
    await env.advance(1000);
    expect(await deleting()).toEqual(['default-1']);
    const events = env.events.withReason(EventReasons.NodeRepair);
    expect(events.map((e) => `${e.object.kind}/${e.object.metadata.name}`)).toEqual([
      'NodeClaim/default-1',
      'Node/default-1',
    ]);
    expect(events[0]?.message).toBe(
      'Node has been Ready=False for 1800s, past its 1800s toleration; deleting its NodeClaim',
    );
    expect(
      await env.metric(MetricNames.NodeClaimsDisrupted, {
        reason: 'unhealthy',
        nodepool: 'default',
        consolidation_policy: '',
        termination_mode: 'graceful',
      }),
    ).toBe(1);
    expect(
      await env.metric(MetricNames.NodeClaimsUnhealthyDisrupted, { condition: 'ready', nodepool: 'default' }),
    ).toBe(1);
    // Its two reschedulable pods; the DaemonSet's pod is not counted.
    expect(
      await env.metric(MetricNames.PodsDisruptionInitiated, {
        reason: 'unhealthy',
        nodepool: 'default',
        consolidation_policy: '',
        termination_mode: 'graceful',
      }),
    ).toBe(2);
  });

  it('forgives a node that recovers within its toleration', async () => {
    const { env, setReady, deleting } = await pool(5);
    await setReady('default-2', 'Unknown');
    await env.advance(20 * MIN);
    await setReady('default-2', 'True');
    await env.advance(60 * MIN);
    expect(await deleting()).toEqual([]);
    expect(env.events.withReason(EventReasons.NodeRepair)).toEqual([]);
  });

  it('repairs nothing while more than 20 % of the pool is unhealthy, saying why, and resumes once it is not', async () => {
    const { env, setReady, deleting } = await pool(5);
    await setReady('default-0', 'False');
    await setReady('default-3', 'Unknown');
    await env.advance(31 * MIN);
    expect(await deleting()).toEqual([]);
    const blocked = env.events.withReason(EventReasons.NodeRepairBlocked);
    expect(new Set(blocked.map((e) => e.object.metadata.name))).toEqual(new Set(['default-0', 'default-3']));
    expect(blocked[0]?.message).toContain(
      '2 of 5 nodes in the NodePool are unhealthy, more than the 1 (20 %) node repair may replace; not repairing',
    );
    await setReady('default-3', 'True');
    await env.advance(MIN);
    expect(await deleting()).toEqual(['default-0']);
  });

  it('replaces at most 20 % of a pool at once: the second node waits until the first is gone', async () => {
    const { env, setReady, deleting } = await pool(10);
    for (const name of ['default-4', 'default-5', 'default-6']) await setReady(name, 'False');
    await env.advance(31 * MIN);
    // 3 of 10 unhealthy is over the 2 allowed: none is repaired.
    expect(await deleting()).toEqual([]);
    await setReady('default-6', 'True');
    await env.advance(MIN);
    expect(((await deleting()) as string[]).sort()).toEqual(['default-4', 'default-5']);
  });

  it('leaves nodes without a NodeClaim and providers without policies alone', async () => {
    const { env } = await pool(0);
    await env.cluster.create(
      Nodes,
      aNode({
        metadata: { name: 'static' },
        spec: { providerID: 'fake://static' },
        status: {
          conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: formatTime(env.clock.now()) }],
        },
      }),
    );
    await env.advance(60 * MIN);
    expect(await env.find(Nodes, 'static')).toBeDefined();
    expect(env.events.withReason(EventReasons.NodeRepair)).toEqual([]);

    const none = await pool(5, []);
    await none.setReady('default-1', 'False');
    await none.env.advance(60 * MIN);
    expect(await none.deleting()).toEqual([]);
  });
});
