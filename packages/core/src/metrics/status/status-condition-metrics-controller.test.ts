import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kube/object.js';
import { resourceType } from '../../kube/resource-type.js';
import { NodeClaims, NodePools, Nodes } from '../../kube/resource-types.js';
import { statusConditionMetricsControllers } from '../../operator/controllers.js';
import { ControllerEnv } from '../../testing/controller-env.js';
import { aNode } from '../../testing/node-builder.js';
import { aNodeClaim } from '../../testing/nodeclaim-builder.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { StatusConditionMetricNames as Names } from './status-condition-metrics.js';

const TestNodeClasses = resourceType({
  apiVersion: 'karpenter.test.sh/v1',
  kind: 'TestNodeClass',
  namespaced: false,
  statusSubresource: true,
});

async function values(env: ControllerEnv, name: string) {
  const metric = env.registry.getSingleMetric(name);
  const got = (await metric?.get())?.values ?? [];
  return got.map((v) => ({
    labels: v.labels as Record<string, string>,
    value: v.value,
    ...('metricName' in v && v.metricName !== undefined ? { metricName: v.metricName as string } : {}),
  }));
}

/** A Ready condition with this status, reason and transition time. */
const ready = (status: 'True' | 'False', reason: string, lastTransitionTime: string) => ({
  type: 'Ready',
  status,
  reason,
  message: '',
  lastTransitionTime,
});

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');

describe('status-condition metrics', () => {
  it("counts each NodePool's conditions, its transitions and how long a status held", async () => {
    const env = new ControllerEnv({ kinds: [TestNodeClasses] });
    await env.start(...statusConditionMetricsControllers([TestNodeClasses], env.registry, env.clock));
    const t0 = iso(env.clock.now());
    await env.create(
      NodePools,
      aNodePool({
        metadata: { name: 'default' },
        status: { conditions: [ready('False', 'NodeClassNotReady', t0)] },
      }),
    );
    await env.settle();
    const pool = { namespace: '', name: 'default', group: 'karpenter.sh', kind: 'NodePool' };
    expect(await values(env, Names.Count)).toEqual([
      { labels: { ...pool, type: 'Ready', status: 'False', reason: 'NodeClassNotReady' }, value: 1 },
    ]);
    expect(await values(env, Names.TransitionsTotal)).toEqual([
      {
        labels: {
          group: 'karpenter.sh',
          kind: 'NodePool',
          type: 'Ready',
          status: 'False',
          reason: 'NodeClassNotReady',
        },
        value: 1,
      },
    ]);

    await env.advance(90_000);
    await env.cluster.patchStatus(
      NodePools,
      { name: 'default' },
      { status: { conditions: [ready('True', 'Ready', iso(env.clock.now()))] } },
    );
    await env.settle();
    expect(await values(env, Names.Count)).toEqual([
      { labels: { ...pool, type: 'Ready', status: 'True', reason: 'Ready' }, value: 1 },
    ]);
    // The kind's own family: the same series without group and kind.
    expect(await values(env, 'operator_nodepool_status_condition_count')).toEqual([
      {
        labels: { namespace: '', name: 'default', type: 'Ready', status: 'True', reason: 'Ready' },
        value: 1,
      },
    ]);
    const transitions = await values(env, Names.TransitionsTotal);
    expect(transitions.map((t) => [t.labels.status, t.value])).toEqual([
      ['False', 1],
      ['True', 1],
    ]);
    const held = (await values(env, Names.TransitionSeconds)).filter(
      (v) => v.labels.type === 'Ready' && v.labels.status === 'False' && v.labels.kind === 'NodePool',
    );
    expect(held.find((v) => v.metricName?.endsWith('_sum'))?.value).toBe(90);
    expect(held.find((v) => v.metricName?.endsWith('_count'))?.value).toBe(1);

    // An update that changes no status is no transition.
    await env.cluster.patch(NodePools, { name: 'default' }, { metadata: { labels: { team: 'a' } } });
    await env.settle();
    expect((await values(env, Names.TransitionsTotal)).reduce((n, t) => n + t.value, 0)).toBe(2);

    // How long each condition has held its status, read when scraped.
    await env.advance(30_000);
    const readyNow = { namespace: '', name: 'default', type: 'Ready', status: 'True', reason: 'Ready' };
    expect(await values(env, 'operator_status_condition_current_status_seconds')).toEqual([
      { labels: { ...readyNow, group: 'karpenter.sh', kind: 'NodePool' }, value: 30 },
    ]);
    expect(await values(env, 'operator_nodepool_status_condition_current_status_seconds')).toEqual([
      { labels: readyNow, value: 30 },
    ]);

    await env.cluster.delete(NodePools, { name: 'default' });
    await env.settle();
    expect(await values(env, Names.Count)).toEqual([]);
    expect(await values(env, 'operator_status_condition_current_status_seconds')).toEqual([]);
  });

  it("covers the provider's NodeClasses under their own group and kind", async () => {
    const env = new ControllerEnv({ kinds: [TestNodeClasses] });
    await env.start(...statusConditionMetricsControllers([TestNodeClasses], env.registry, env.clock));
    await env.create(TestNodeClasses, {
      apiVersion: TestNodeClasses.apiVersion,
      kind: TestNodeClasses.kind,
      metadata: { name: 'default' },
      status: { conditions: [ready('True', 'Ready', iso(env.clock.now()))] },
    } as KubeObject);
    await env.settle();
    expect(await values(env, Names.Count)).toEqual([
      {
        labels: {
          namespace: '',
          name: 'default',
          group: 'karpenter.test.sh',
          kind: 'TestNodeClass',
          type: 'Ready',
          status: 'True',
          reason: 'Ready',
        },
        value: 1,
      },
    ]);
  });

  it("fills each kind's own families too: NodeClaims by NodeClass and NodePool label, with Karpenter's buckets", async () => {
    const env = new ControllerEnv({ kinds: [TestNodeClasses] });
    await env.start(...statusConditionMetricsControllers([TestNodeClasses], env.registry, env.clock));
    const launched = (status: 'True' | 'False') => ({
      ...ready(status, status === 'True' ? 'Launched' : 'Launching', iso(env.clock.now())),
      type: 'Launched',
    });
    await env.create(
      NodeClaims,
      aNodeClaim({
        metadata: { name: 'nc-1', labels: { 'karpenter.sh/nodepool': 'default' } },
        status: { conditions: [launched('False')] },
      }),
    );
    await env.settle();
    await env.advance(3_000);
    await env.cluster.patchStatus(
      NodeClaims,
      { name: 'nc-1' },
      { status: { conditions: [launched('True')] } },
    );
    await env.settle();

    const labels = { karpenter_test_sh_testnodeclass: '', karpenter_sh_nodepool: 'default' };
    expect(await values(env, 'operator_nodeclaim_status_condition_count')).toEqual([
      {
        labels: {
          namespace: '',
          name: 'nc-1',
          type: 'Launched',
          status: 'True',
          reason: 'Launched',
          ...labels,
        },
        value: 1,
      },
    ]);
    expect(
      (await values(env, 'operator_nodeclaim_status_condition_transitions_total')).map((v) => [
        v.labels.status,
        v.labels.karpenter_sh_nodepool,
        v.value,
      ]),
    ).toEqual([
      ['False', 'default', 1],
      ['True', 'default', 1],
    ]);
    // Karpenter's buckets double from 0.5 s: 3 s lands in le=4, not le=2.
    const buckets = (await values(env, 'operator_nodeclaim_status_condition_transition_seconds')).filter(
      (v) => v.metricName?.endsWith('_bucket'),
    );
    expect(buckets.find((b) => String(b.labels.le) === '2')?.value).toBe(0);
    expect(buckets.find((b) => String(b.labels.le) === '4')?.value).toBe(1);
    expect(buckets.find((b) => String(b.labels.le) === '8192')?.value).toBe(1);
    expect(env.registry.getSingleMetric('operator_testnodeclass_status_condition_count')).toBeDefined();
  });

  it("reports Nodes' conditions in operator_node_status_condition_* only, labelled as Karpenter labels them", async () => {
    const env = new ControllerEnv({ kinds: [TestNodeClasses] });
    await env.start(...statusConditionMetricsControllers([TestNodeClasses], env.registry, env.clock));
    const t0 = iso(env.clock.now());
    await env.create(
      Nodes,
      aNode({
        metadata: {
          name: 'node-a',
          labels: { 'karpenter.sh/nodepool': 'default', 'karpenter.sh/initialized': 'true' },
        },
        status: { conditions: [{ ...ready('True', 'KubeletReady', t0) }] },
      }),
    );
    await env.settle();
    await env.advance(20_000);
    const nodeLabels = {
      karpenter_test_sh_testnodeclass: '',
      karpenter_sh_nodepool: 'default',
      karpenter_sh_initialized: 'true',
    };
    const condition = {
      namespace: '',
      name: 'node-a',
      type: 'Ready',
      status: 'True',
      reason: 'KubeletReady',
    };
    expect(await values(env, 'operator_node_status_condition_count')).toEqual([
      { labels: { ...condition, ...nodeLabels }, value: 1 },
    ]);
    expect(await values(env, 'operator_node_status_condition_current_status_seconds')).toEqual([
      { labels: { ...condition, ...nodeLabels }, value: 20 },
    ]);
    expect(
      (await values(env, 'operator_node_status_condition_transitions_total')).map((v) => [
        v.labels.type,
        v.value,
      ]),
    ).toEqual([['Ready', 1]]);
    // Karpenter does not emit the deprecated generic families for Nodes.
    expect(await values(env, Names.Count)).toEqual([]);
    expect(await values(env, 'operator_status_condition_current_status_seconds')).toEqual([]);
  });

  it('times a NodeClaim from its deletionTimestamp until it is gone, and drops its series then', async () => {
    const env = new ControllerEnv({ kinds: [TestNodeClasses] });
    await env.start(...statusConditionMetricsControllers([TestNodeClasses], env.registry, env.clock));
    await env.create(
      NodeClaims,
      aNodeClaim({
        metadata: {
          name: 'nc-1',
          labels: { 'karpenter.sh/nodepool': 'default' },
          finalizers: ['karpenter.sh/termination'],
        },
      }),
    );
    await env.settle();
    expect(await values(env, 'operator_nodeclaim_termination_current_time_seconds')).toEqual([]);

    await env.cluster.delete(NodeClaims, { name: 'nc-1' });
    await env.settle();
    await env.advance(12_000);
    const own = { karpenter_test_sh_testnodeclass: '', karpenter_sh_nodepool: 'default' };
    expect(await values(env, 'operator_nodeclaim_termination_current_time_seconds')).toEqual([
      { labels: { namespace: '', name: 'nc-1', ...own }, value: 12 },
    ]);
    expect(await values(env, 'operator_termination_current_time_seconds')).toEqual([
      { labels: { namespace: '', name: 'nc-1', group: 'karpenter.sh', kind: 'NodeClaim' }, value: 12 },
    ]);

    await env.cluster.patch(NodeClaims, { name: 'nc-1' }, { metadata: { finalizers: [] } });
    await env.settle();
    expect(await values(env, 'operator_nodeclaim_termination_current_time_seconds')).toEqual([]);
    expect(await values(env, 'operator_termination_current_time_seconds')).toEqual([]);
    const own12 = (await values(env, 'operator_nodeclaim_termination_duration_seconds')).filter(
      (v) => v.labels.karpenter_sh_nodepool === 'default',
    );
    expect(own12.find((v) => v.metricName?.endsWith('_sum'))?.value).toBe(12);
    // Karpenter's buckets for NodeClaims: 12 s lands in le=16, not le=8.
    expect(own12.find((v) => v.metricName?.endsWith('_bucket') && String(v.labels.le) === '8')?.value).toBe(
      0,
    );
    expect(own12.find((v) => v.metricName?.endsWith('_bucket') && String(v.labels.le) === '16')?.value).toBe(
      1,
    );
    const generic = await values(env, 'operator_termination_duration_seconds');
    expect(
      generic.find((v) => v.metricName?.endsWith('_count') && v.labels.kind === 'NodeClaim')?.value,
    ).toBe(1);
    // Nodes have their own termination families (no generic ones: Karpenter emits none for them).
    expect(env.registry.getSingleMetric('operator_node_termination_duration_seconds')).toBeDefined();
    expect(env.registry.getSingleMetric('operator_node_termination_current_time_seconds')).toBeDefined();
  });
});
