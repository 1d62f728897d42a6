import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Taints } from '../../apis/labels.js';
import { Deployments } from '../../kube/builtin-types.js';
import type { UntypedObject } from '../../kube/object.js';
import { lifecycleControllers } from '../../lifecycle/controllers.js';
import { lifecycleMetrics } from '../../lifecycle/metrics.js';
import { NodeClaims, NodePools, Nodes } from '../../lifecycle/resource-types.js';
import { RecordingEventRecorder } from '../../operator/runtime/event-recorder.js';
import { Manager } from '../../operator/runtime/manager.js';
import { provisioningControllers } from '../../provisioning/controllers.js';
import { SimulationEnvironment } from '../../simulation/environment/simulation-environment.js';
import { deploymentObject } from '../../simulation/scenario/scenario-objects.js';
import { ClusterState } from '../../state/cluster-state.js';
import { fakeInstanceTypes } from '../../testing/fake-instance-types.js';
import { DisruptionController } from './disruption-controller.js';
import { DisruptionEventReasons } from './events.js';
import { disruptionMetrics } from './metrics.js';

const pool = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  metadata: { name: 'default' },
  spec: {
    template: {
      spec: {
        nodeClassRef: { group: 'sim.nodewright.dev', kind: 'SimulatedNodeClass', name: 'default' },
        requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }],
      },
    },
    disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '0s' },
  },
};

const web = {
  name: 'web',
  namespace: 'default',
  replicas: 0,
  pod: { requests: { cpu: '1', memory: '1Gi' } },
};

async function setup(disruption: Record<string, unknown> = {}) {
  const env = new SimulationEnvironment({
    catalog: fakeInstanceTypes(),
    cluster: { kinds: [NodePools, NodeClaims] },
    registration: { bootDelay: 20_000 },
  });
  const registry = new Registry();
  const events = new RecordingEventRecorder();
  const state = new ClusterState({ clock: env.clock });
  const manager = new Manager({
    cluster: env.cluster,
    clock: env.clock,
    timers: env.timers,
    registry,
    logger: pino({ level: 'silent' }),
    settleCluster: () => env.settle(),
  });
  const lMetrics = lifecycleMetrics(registry);
  const base = { cluster: env.cluster, cloudProvider: env.provider, clock: env.clock, events };
  manager.register(
    ...provisioningControllers({ ...base, registry, lifecycleMetrics: lMetrics, state }),
    ...lifecycleControllers({ ...base, metrics: lMetrics }),
    new DisruptionController({
      ...base,
      state,
      metrics: disruptionMetrics(registry),
      lifecycleMetrics: lMetrics,
    }),
  );
  const nodePool = {
    ...pool,
    spec: { ...pool.spec, disruption: { ...pool.spec.disruption, ...disruption } },
  };
  await env.cluster.create(NodePools, nodePool as never);
  manager.start();
  await manager.synced();
  const advance = (ms: number) => env.timers.advance(ms, () => manager.settled());
  const metric = async (name: string, labels: Record<string, string>) => {
    const values = (await registry.getSingleMetric(name)?.get())?.values ?? [];
    return values
      .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
      .reduce((s, v) => s + v.value, 0);
  };
  const scale = (replicas: number) =>
    env.cluster.patch(Deployments, { name: 'web', namespace: 'default' }, { spec: { replicas } });
  await env.cluster.create(Deployments, deploymentObject(web, 3) as UntypedObject);
  await advance(120_000);
  return { env, events, advance, metric, scale, manager };
}

const disruptedTaint = (n: { spec: { taints?: { key: string }[] } }) =>
  (n.spec.taints ?? []).some((t) => t.key === Taints.Disrupted.key);

describe('DisruptionController', () => {
  it('taints an empty node, validates after 15 s, then deletes it and counts the decision', async () => {
    const { env, events, advance, metric, scale } = await setup();
    const before = (await env.cluster.list(NodeClaims)).items;
    expect(before.length).toBeGreaterThan(0);
    await scale(0);
    await advance(10_000);
    const tainted = (await env.cluster.list(Nodes)).items.filter(disruptedTaint);
    expect(tainted.length).toBe(before.length);
    expect(await metric('karpenter_voluntary_disruption_eligible_nodes', { reason: 'empty' })).toBe(
      before.length,
    );
    expect(await metric('karpenter_voluntary_disruption_eligible_nodes', { reason: 'underutilized' })).toBe(
      0,
    );
    await advance(20_000);
    await advance(120_000);
    expect((await env.cluster.list(NodeClaims)).items).toEqual([]);
    expect(events.withReason(DisruptionEventReasons.DisruptionTerminating).length).toBeGreaterThan(0);
    expect(
      await metric('karpenter_voluntary_disruption_decisions_total', { decision: 'delete', reason: 'empty' }),
    ).toBe(1);
    expect(await metric('karpenter_nodeclaims_disrupted_total', { reason: 'empty' })).toBe(before.length);
  }, 30_000);

  it('rolls the taint back when the command no longer holds after the validation delay', async () => {
    const { env, events, advance, metric, scale } = await setup();
    await scale(0);
    await advance(10_000);
    expect((await env.cluster.list(Nodes)).items.some(disruptedTaint)).toBe(true);
    // A budget of zero arrives during validation: the command must be abandoned.
    await env.cluster.patch(
      NodePools,
      { name: 'default' },
      { spec: { disruption: { budgets: [{ nodes: '0' }] } } },
    );
    await advance(20_000);
    expect((await env.cluster.list(Nodes)).items.some(disruptedTaint)).toBe(false);
    expect((await env.cluster.list(NodeClaims)).items.length).toBeGreaterThan(0);
    expect(events.withReason(DisruptionEventReasons.DisruptionAborted)[0]?.message).toMatch(
      /validation failed: .*budget/,
    );
    expect(await metric('karpenter_voluntary_disruption_decisions_total', {})).toBe(0);
    await advance(60_000);
    expect(
      events.withReason(DisruptionEventReasons.DisruptionBlocked).some((e) => /budget/i.test(e.message)),
    ).toBe(true);
  }, 30_000);

  it('acts exactly when consolidateAfter passes, not at a later poll or after an idle skip', async () => {
    const { env, advance, scale, manager } = await setup({ consolidateAfter: '10m3s' });
    await scale(0);
    await advance(30_000);
    const nodes = (await env.cluster.list(Nodes)).items;
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes.some(disruptedTaint)).toBe(false);
    // Empty since the pods went; consolidatable 10m3s after the newest node was created (off the
    // 10 s poll grid, so a poll-only controller would act up to 7 s late).
    const at = Math.max(...nodes.map((n) => Date.parse(n.metadata.creationTimestamp ?? ''))) + 603_000;
    await env.timers.runUntil(at - 1, () => manager.settled());
    expect((await env.cluster.list(Nodes)).items.some(disruptedTaint)).toBe(false);
    await advance(1);
    expect((await env.cluster.list(Nodes)).items.filter(disruptedTaint).length).toBe(nodes.length);
  }, 30_000);

  it('acts exactly when a budget window that allowed nothing closes', async () => {
    // 0 disruptions from 00:00 for 1h (the environment starts at midnight UTC).
    const { env, advance, scale, manager } = await setup({
      budgets: [{ nodes: '0', schedule: '0 0 * * *', duration: '1h' }, { nodes: '100%' }],
    });
    await scale(0);
    const start = Date.parse('2026-01-01T00:00:00Z');
    await env.timers.runUntil(start + 3_600_000 - 1, () => manager.settled());
    expect((await env.cluster.list(Nodes)).items.some(disruptedTaint)).toBe(false);
    await advance(1);
    expect((await env.cluster.list(Nodes)).items.some(disruptedTaint)).toBe(true);
  }, 30_000);
});
