import { describe, expect, it, vi } from 'vitest';
import { Taints } from '../../apis/labels.js';
import { NodeClaims, NodePools, Nodes, Pods } from '../../kube/resource-types.js';
import { asPatch } from '../../lifecycle/patch.js';
import { hasDisruptedTaint, startControllerHarness } from '../testing/controller-harness.js';
import type { DisruptionControllerOptions } from './disruption-controller.js';
import { DisruptionEventReasons } from './events.js';

async function setup(disruption: Record<string, unknown> = {}, controller: DisruptionControllerOptions = {}) {
  const h = await startControllerHarness({ disruption, controller });
  return { ...h, scale: (replicas: number) => h.scale('web', replicas) };
}

describe('DisruptionController', () => {
  it('taints an empty node, validates after 15 s, then deletes it and counts the decision', async () => {
    const { env, events, advance, metric, scale, registry } = await setup();
    const before = (await env.cluster.list(NodeClaims)).items;
    expect(before.length).toBeGreaterThan(0);
    await scale(0);
    await advance(10_000);
    // Every method a pass runs is timed; emptiness ran in the pass that decided.
    const evaluations = await registry
      .getSingleMetric('karpenter_voluntary_disruption_decision_evaluation_duration_seconds')
      ?.get();
    const counts = (evaluations?.values ?? []).filter((v) =>
      (v as { metricName?: string }).metricName?.endsWith('_count'),
    );
    expect(
      counts.find((v) => v.labels.consolidation_type === 'empty' && v.labels.reason === 'empty')?.value,
    ).toBeGreaterThan(0);
    const tainted = (await env.cluster.list(Nodes)).items.filter(hasDisruptedTaint);
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

  it('gives the event loop turns during a pass and decides as it would in one stretch', async () => {
    // The slices' clock moves 1 ms at every reading and slices are 2 ms: a turn every other
    // reading. The decision is the empty-node delete of the first test.
    let now = 0;
    let turns = 0;
    const { env, advance, scale } = await setup(
      {},
      {
        elapsedMs: () => (now += 1),
        sliceMs: 2,
        defer: async () => {
          turns++;
        },
      },
    );
    const before = (await env.cluster.list(NodeClaims)).items;
    await scale(0);
    await advance(10_000);
    expect(turns).toBeGreaterThan(0);
    expect((await env.cluster.list(Nodes)).items.filter(hasDisruptedTaint).length).toBe(before.length);
  }, 30_000);

  it('rolls the taint back when the command no longer holds after the validation delay', async () => {
    const { env, events, advance, metric, scale } = await setup();
    await scale(0);
    await advance(10_000);
    expect((await env.cluster.list(Nodes)).items.some(hasDisruptedTaint)).toBe(true);
    // A budget of zero arrives during validation: the command must be abandoned.
    await env.cluster.patch(
      NodePools,
      { name: 'default' },
      { spec: { disruption: { budgets: [{ nodes: '0' }] } } },
    );
    await advance(20_000);
    expect((await env.cluster.list(Nodes)).items.some(hasDisruptedTaint)).toBe(false);
    expect((await env.cluster.list(NodeClaims)).items.length).toBeGreaterThan(0);
    expect(events.withReason(DisruptionEventReasons.DisruptionAborted)[0]?.message).toMatch(
      /validation failed: .*budget/,
    );
    expect(await metric('karpenter_voluntary_disruption_decisions_total', {})).toBe(0);
    expect(
      await metric('karpenter_voluntary_disruption_failed_validations_total', {
        consolidation_type: 'empty',
      }),
    ).toBeGreaterThan(0);
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
    expect(nodes.some(hasDisruptedTaint)).toBe(false);
    // Empty since the pods went; consolidatable 10m3s after the newest node was created (off the
    // 10 s poll grid, so a poll-only controller would act up to 7 s late).
    const at = Math.max(...nodes.map((n) => Date.parse(n.metadata.creationTimestamp ?? ''))) + 603_000;
    await env.timers.runUntil(at - 1, () => manager.settled());
    expect((await env.cluster.list(Nodes)).items.some(hasDisruptedTaint)).toBe(false);
    await advance(1);
    expect((await env.cluster.list(Nodes)).items.filter(hasDisruptedTaint).length).toBe(nodes.length);
  }, 30_000);

  it('acts exactly when a budget window that allowed nothing closes', async () => {
    // 0 disruptions from 00:00 for 1h (the environment starts at midnight UTC).
    const { env, advance, scale, manager } = await setup({
      budgets: [{ nodes: '0', schedule: '0 0 * * *', duration: '1h' }, { nodes: '100%' }],
    });
    await scale(0);
    const start = Date.parse('2026-01-01T00:00:00Z');
    await env.timers.runUntil(start + 3_600_000 - 1, () => manager.settled());
    expect((await env.cluster.list(Nodes)).items.some(hasDisruptedTaint)).toBe(false);
    await advance(1);
    expect((await env.cluster.list(Nodes)).items.some(hasDisruptedTaint)).toBe(true);
  }, 30_000);

  it('publishes DisruptionBlocked on each blocked Node and NodeClaim, and once on the NodePool whose budget blocks', async () => {
    // Every poll runs a full pass (no idle skip), so a pass every 10 s must not repeat events.
    const { env, events, advance, scale } = await setup({ budgets: [{ nodes: '0' }] }, { idleSkipMs: 0 });
    await scale(0);
    await advance(60_000);
    const nodes = (await env.cluster.list(Nodes)).items;
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes.some(hasDisruptedTaint)).toBe(false);
    const blocked = events.withReason(DisruptionEventReasons.DisruptionBlocked);
    const on = (kind: string) =>
      blocked.filter((e) => e.object.kind === kind).map((e) => [e.object.metadata.name, e.message]);
    const poolMessage = (reason: string) =>
      `the disruption budget of NodePool default allows no ${reason} disruptions now (budgets[0]: nodes "0", ` +
      `${nodes.length} node${nodes.length === 1 ? '' : 's'})`;
    // Underutilized while the pods ran, then Empty; each once, however many passes ran since.
    expect(on('NodePool')).toEqual([
      ['default', poolMessage('Underutilized')],
      ['default', poolMessage('Empty')],
    ]);
    expect(on('Node').map(([name]) => name)).toContain(nodes[0]?.metadata.name);
    const claims = (await env.cluster.list(NodeClaims)).items;
    const onClaims = on('NodeClaim').filter(([, message]) => message === poolMessage('Empty'));
    expect(onClaims.map(([name]) => name).sort()).toEqual(claims.map((c) => c.metadata.name).sort());

    // Lifted, the nodes go; a budget that blocks again later is news again.
    await env.cluster.patch(
      NodePools,
      { name: 'default' },
      { spec: { disruption: { budgets: [{ nodes: '100%' }] } } },
    );
    await advance(60_000);
    expect((await env.cluster.list(NodeClaims)).items).toEqual([]);
    await env.cluster.patch(
      NodePools,
      { name: 'default' },
      { spec: { disruption: { budgets: [{ nodes: '0' }] } } },
    );
    await scale(3);
    await advance(120_000);
    await scale(0);
    await advance(30_000);
    const poolEvents = events
      .withReason(DisruptionEventReasons.DisruptionBlocked)
      .filter((e) => e.object.kind === 'NodePool')
      .map((e) => e.message.replace(/ \(budgets.*$/, ''));
    const head = 'the disruption budget of NodePool default allows no';
    expect(poolEvents).toEqual([
      `${head} Underutilized disruptions now`,
      `${head} Empty disruptions now`,
      `${head} Underutilized disruptions now`,
      `${head} Empty disruptions now`,
    ]);
  }, 30_000);

  it('a pass over what the last pass saw reuses its snapshot instead of cutting cluster state again', async () => {
    const { advance, metric, state, env } = await setup({}, { idleSkipMs: 0 });
    const passes = () => metric('controller_runtime_reconcile_total', { controller: 'disruption' });
    await advance(30_000);
    const cuts = vi.spyOn(state, 'snapshot');
    const before = await passes();
    await advance(60_000);
    expect((await passes()) - before).toBe(6);
    expect(cuts).not.toHaveBeenCalled();
    // Anything a pass reads changing cuts a new one.
    const node = (await env.cluster.list(Nodes)).items[0]!;
    await env.cluster.patch(
      Nodes,
      { name: node.metadata.name },
      asPatch({ metadata: { labels: { team: 'a' } } }),
    );
    await advance(10_000);
    expect(cuts).toHaveBeenCalledTimes(1);
  }, 30_000);

  it('sees a pod nomination end with time alone, though nothing was applied since the last pass', async () => {
    const { advance, state, env, disruption } = await setup({}, { idleSkipMs: 0 });
    // A pod no NodePool can place stays pending, and nothing provisions for it.
    await env.cluster.create(Pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stuck', namespace: 'default' },
      spec: {
        nodeSelector: { 'example.com/nowhere': 'true' },
        containers: [{ name: 'c', image: 'pause', resources: { requests: { cpu: '100m' } } }],
      },
    } as never);
    await advance(60_000);
    const node = (await env.cluster.list(Nodes)).items[0]!.metadata.name;
    const pod = state.pod('default', 'stuck');
    expect(pod?.spec.nodeName).toBeUndefined();
    expect(disruption.blockedNodes().get(node) ?? '').not.toMatch(/nominated/);
    state.nominate([pod!], { node });
    const generation = state.generation();
    await advance(10_000);
    expect(disruption.blockedNodes().get(node)).toBe('node is nominated for pending pod default/stuck');
    // The 20 s window closes with nothing applied in between: the pass must see it closed.
    await advance(20_000);
    expect(state.generation()).toBe(generation);
    expect(state.nominationOf(pod!)).toBeUndefined();
    expect(disruption.blockedNodes().get(node) ?? '').not.toMatch(/nominated/);
  }, 30_000);

  it('with idleSkipMs 0 still passes every poll, never skipping and never spinning', async () => {
    const { advance, metric } = await setup({}, { idleSkipMs: 0 });
    const passes = () => metric('controller_runtime_reconcile_total', { controller: 'disruption' });
    const before = await passes();
    await advance(60_000);
    expect((await passes()) - before).toBe(6);
  }, 30_000);
});

describe('DisruptionController and a command that died', () => {
  it('untaints nodes left with karpenter.sh/disrupted by a lost command, then consolidates them', async () => {
    const { env, advance, logs, scale } = await setup();
    // What a controller killed between tainting and deleting leaves behind: tainted nodes, no command.
    for (const node of (await env.cluster.list(Nodes)).items)
      await env.cluster.patch(
        Nodes,
        { name: node.metadata.name },
        asPatch({ spec: { taints: [...(node.spec.taints ?? []), { ...Taints.Disrupted }] } }),
      );
    const strandedCount = (await env.cluster.list(Nodes)).items.filter(hasDisruptedTaint).length;
    expect(strandedCount).toBeGreaterThan(0);
    await advance(10_000);
    expect((await env.cluster.list(Nodes)).items.filter(hasDisruptedTaint)).toEqual([]);
    const released = logs.filter((l) => l.msg === 'removed a stranded karpenter.sh/disrupted taint');
    expect(released.length).toBe(strandedCount);
    // Candidates again: emptied, they are consolidated away.
    await scale(0);
    await advance(30_000);
    await advance(120_000);
    expect((await env.cluster.list(NodeClaims)).items).toEqual([]);
  }, 30_000);
});
