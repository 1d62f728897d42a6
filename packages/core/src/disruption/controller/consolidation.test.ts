import { describe, expect, it } from 'vitest';
import { Annotations, Labels } from '../../apis/labels.js';
import { NodeClaims, NodePools, Nodes, Pods } from '../../kube/resource-types.js';
import {
  type ControllerHarness,
  hasDisruptedTaint,
  isInitialized,
  OnDemandOnly,
  startControllerHarness,
} from '../testing/controller-harness.js';
import { DisruptionEventReasons } from './events.js';

const onlyTypes = (...types: string[]) => [
  OnDemandOnly,
  { key: Labels.InstanceType, operator: 'In', values: types },
];

/** Lets the NodePool launch these types from now on (a wider set: no node drifts). */
async function allowTypes(h: ControllerHarness, ...types: string[]) {
  const pool = await h.env.cluster.get(NodePools, { name: 'default' });
  await h.env.cluster.patch(
    NodePools,
    { name: 'default' },
    { spec: { template: { spec: { ...pool.spec.template.spec, requirements: onlyTypes(...types) } } } },
  );
}

/** Which node each running pod of the deployment is bound to. */
async function podNodes(h: ControllerHarness, app: string): Promise<string[]> {
  const pods = (await h.env.cluster.list(Pods, { namespace: 'default' })).items;
  return pods
    .filter((p) => p.metadata.name?.startsWith(`${app}-`) && p.metadata.deletionTimestamp === undefined)
    .map((p) => p.spec.nodeName ?? '');
}

/**
 * Records, in order, each NodeClaim becoming Initialized, each NodeClaim deletion, each Node
 * gaining the disrupted taint and each pod leaving its node (drain), as the watches see them.
 */
function recordOrder(h: ControllerHarness): string[] {
  const seen: string[] = [];
  const initialized = new Set<string>();
  const deleting = new Set<string>();
  const tainted = new Set<string>();
  h.env.cluster.watch(NodeClaims, (event) => {
    if (event.type === 'ERROR') return;
    const { object } = event;
    const name = object.metadata.name ?? '';
    if (isInitialized(object) && !initialized.has(name)) {
      initialized.add(name);
      seen.push(`initialized ${name}`);
    }
    if (object.metadata.deletionTimestamp !== undefined && !deleting.has(name)) {
      deleting.add(name);
      seen.push(`deleting ${name}`);
    }
  });
  h.env.cluster.watch(Nodes, (event) => {
    if (event.type === 'ERROR') return;
    const { object } = event;
    const name = object.metadata.name ?? '';
    if (hasDisruptedTaint(object) && !tainted.has(name)) {
      tainted.add(name);
      seen.push(`tainted ${name}`);
    }
  });
  const gone = new Set<string>();
  h.env.cluster.watch(Pods, (event) => {
    if (event.type === 'ERROR') return;
    const { object } = event;
    const name = object.metadata.name ?? '';
    if ((event.type === 'DELETED' || object.metadata.deletionTimestamp !== undefined) && !gone.has(name)) {
      gone.add(name);
      seen.push(`pod leaving ${object.spec.nodeName ?? ''}`);
    }
  });
  return seen;
}

describe('DisruptionController consolidation of busy nodes', () => {
  it('replaces an under-used large node with a small one: launched and Initialized before the candidate is deleted', async () => {
    const h = await startControllerHarness({
      requirements: onlyTypes('fake-large'),
      deployments: [{ name: 'web', replicas: 2, requests: { cpu: '500m', memory: '1Gi' } }],
    });
    const [large] = await h.claims();
    expect((await h.claims()).length).toBe(1);
    expect(large?.metadata.labels?.[Labels.InstanceType]).toBe('fake-large');
    const largeName = large?.metadata.name ?? '';
    const largeNode = large?.status?.nodeName ?? '';
    expect(await podNodes(h, 'web')).toEqual([largeNode, largeNode]);
    const costBefore = h.hourlyCost();
    expect(costBefore).toBeCloseTo(0.4);

    const order = recordOrder(h);
    await allowTypes(h, 'fake-small', 'fake-large');
    await h.advance(10_000);
    // Decided and tainted; nothing launched until the 15 s validation has passed.
    expect(
      (await h.nodes()).find((n) => n.metadata.name === largeNode && hasDisruptedTaint(n)),
    ).toBeDefined();
    expect((await h.claims()).length).toBe(1);
    await h.advance(15_000);
    const replacement = (await h.claims()).find((c) => c.metadata.name !== largeName);
    expect(replacement).toBeDefined();
    const replacementName = replacement?.metadata.name ?? '';
    expect(replacement?.spec.requirements.find((r) => r.key === Labels.InstanceType)?.values).toContain(
      'fake-small',
    );
    expect(h.events.withReason(DisruptionEventReasons.DisruptionLaunching).map((e) => e.message)).toEqual([
      expect.stringContaining(replacementName),
    ]);
    // The replacement is still booting (20 s): the candidate must be kept meanwhile.
    expect(isInitialized(replacement!)).toBe(false);
    expect((await h.claims()).find((c) => c.metadata.name === largeName)?.metadata.deletionTimestamp).toBe(
      undefined,
    );

    await h.advance(120_000);
    expect(order.indexOf(`tainted ${largeNode}`)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(`initialized ${replacementName}`)).toBeGreaterThan(
      order.indexOf(`tainted ${largeNode}`),
    );
    expect(order.indexOf(`deleting ${largeName}`)).toBeGreaterThan(
      order.indexOf(`initialized ${replacementName}`),
    );
    // The drain only starts once the replacement is up.
    expect(order.indexOf(`pod leaving ${largeNode}`)).toBeGreaterThan(
      order.indexOf(`initialized ${replacementName}`),
    );

    const after = await h.claims();
    expect(after.map((c) => [c.metadata.name, c.metadata.labels?.[Labels.InstanceType]])).toEqual([
      [replacementName, 'fake-small'],
    ]);
    const smallNode = after[0]?.status?.nodeName ?? '';
    expect(await podNodes(h, 'web')).toEqual([smallNode, smallNode]);
    expect(h.hourlyCost()).toBeCloseTo(0.1);
    expect(h.hourlyCost()).toBeLessThan(costBefore);
    expect(
      await h.metric('karpenter_voluntary_disruption_decisions_total', {
        decision: 'replace',
        reason: 'underutilized',
        consolidation_type: 'single',
      }),
    ).toBe(1);
    expect(
      await h.metric('karpenter_voluntary_disruption_decisions_by_nodepool_total', {
        nodepool: 'default',
        decision: 'replace',
        reason: 'underutilized',
        consolidation_type: 'single',
      }),
    ).toBe(1);
    expect(await h.metric('karpenter_nodeclaims_created_total', { reason: 'disruption' })).toBe(1);
  }, 30_000);

  it('publishes Unconsolidatable once on a Node and its NodeClaim that consolidation tries and cannot take', async () => {
    // Every poll runs a full pass (no idle skip): the same verdict must not repeat the event.
    const h = await startControllerHarness({
      requirements: onlyTypes('fake-large'),
      deployments: [{ name: 'web', replicas: 2, requests: { cpu: '500m', memory: '1Gi' } }],
      controller: { idleSkipMs: 0 },
    });
    const [large] = await h.claims();
    const nodeName = large?.status?.nodeName ?? '';
    await h.advance(120_000);
    expect((await h.claims()).map((c) => c.metadata.name)).toEqual([large?.metadata.name]);
    const events = h.events
      .withReason(DisruptionEventReasons.Unconsolidatable)
      .map((e) => [e.object.kind, e.object.metadata.name, e.type]);
    expect(events).toEqual([
      ['Node', nodeName, 'Normal'],
      ['NodeClaim', large?.metadata.name, 'Normal'],
    ]);
    const [message] = h.events.withReason(DisruptionEventReasons.Unconsolidatable).map((e) => e.message);
    // Why, in words, without the decision's internal prefix.
    expect(message).toMatch(/cheaper/);
    expect(message).not.toMatch(/^not consolidated/);
  }, 30_000);

  it('deletes two under-used nodes whose pods fit on a third, launching nothing', async () => {
    // Default budget (10%) would allow one of three nodes at a time.
    const h = await startControllerHarness({
      requirements: onlyTypes('fake-medium'),
      deployments: [],
      disruption: { budgets: [{ nodes: '100%' }] },
    });
    // One deployment at a time, so each fills a 4-CPU node of its own.
    for (const name of ['a', 'b', 'c']) {
      await h.deploy({ name, replicas: 4 });
      await h.advance(60_000);
    }
    const byApp = new Map<string, string>();
    for (const app of ['a', 'b', 'c']) {
      const nodes = new Set(await podNodes(h, app));
      expect(nodes.size).toBe(1);
      byApp.set(app, [...nodes][0] ?? '');
    }
    expect(new Set(byApp.values()).size).toBe(3);
    const [na, nb, nc] = ['a', 'b', 'c'].map((app) => byApp.get(app) ?? '');
    const claimOf = async (node: string) =>
      (await h.claims()).find((c) => c.status?.nodeName === node)?.metadata.name ?? '';
    const [ca, cb] = [await claimOf(na!), await claimOf(nb!)];
    expect(h.hourlyCost()).toBeCloseTo(0.6);
    // c's node may not be disrupted and keeps 2 CPUs free: a's and b's last pods fit there.
    await h.env.cluster.patch(
      Nodes,
      { name: nc! },
      { metadata: { annotations: { [Annotations.DoNotDisrupt]: 'true' } } },
    );
    await h.scale('a', 1);
    await h.scale('b', 1);
    await h.scale('c', 2);
    await h.advance(10_000);
    expect(
      (await h.nodes())
        .filter(hasDisruptedTaint)
        .map((n) => n.metadata.name)
        .sort(),
    ).toEqual([na, nb].sort());
    await h.advance(120_000);
    expect((await h.claims()).map((c) => c.status?.nodeName)).toEqual([nc]);
    expect([...(await podNodes(h, 'a')), ...(await podNodes(h, 'b')), ...(await podNodes(h, 'c'))]).toEqual([
      nc,
      nc,
      nc,
      nc,
    ]);
    expect(h.hourlyCost()).toBeCloseTo(0.2);
    expect(
      await h.metric('karpenter_voluntary_disruption_decisions_total', {
        decision: 'delete',
        reason: 'underutilized',
        consolidation_type: 'multi',
      }),
    ).toBe(1);
    expect(await h.metric('karpenter_nodeclaims_created_total', { reason: 'disruption' })).toBe(0);
    // The chosen multi-node move, once for its pool: approved, unscored (not Balanced).
    expect(
      await h.metric('karpenter_consolidation_moves_total', {
        decision: 'approved',
        nodepool: 'default',
        policy: 'WhenEmptyOrUnderutilized',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      await h.metric('karpenter_nodeclaims_disrupted_total', {
        reason: 'underutilized',
        consolidation_policy: 'when_empty_or_underutilized',
        termination_mode: 'graceful',
      }),
    ).toBe(2);
    // a's and b's last pods, one on each node the command deleted.
    expect(
      await h.metric('karpenter_pods_disruption_initiated_total', {
        reason: 'underutilized',
        consolidation_policy: 'when_empty_or_underutilized',
        termination_mode: 'graceful',
      }),
    ).toBe(2);
    expect(
      h.events
        .withReason(DisruptionEventReasons.DisruptionTerminating)
        .filter((e) => e.object.kind === 'NodeClaim')
        .map((e) => e.object.metadata.name)
        .sort(),
    ).toEqual([ca, cb].sort());
  }, 30_000);

  it('replaces two under-used nodes with one cheaper node, Initialized before either is deleted', async () => {
    const h = await startControllerHarness({
      requirements: onlyTypes('fake-medium'),
      deployments: [],
      disruption: { budgets: [{ nodes: '100%' }] },
    });
    for (const name of ['a', 'b']) {
      await h.deploy({ name, replicas: 4 });
      await h.advance(60_000);
    }
    const before = await h.claims();
    expect(before.map((c) => c.metadata.labels?.[Labels.InstanceType])).toEqual([
      'fake-medium',
      'fake-medium',
    ]);
    const order = recordOrder(h);
    await h.scale('a', 1);
    await h.scale('b', 1);
    // Two 1-CPU pods fit one fake-small ($0.1/h) instead of two fake-medium ($0.4/h).
    await allowTypes(h, 'fake-small', 'fake-medium');
    await h.advance(150_000);
    const after = await h.claims();
    expect(after.map((c) => c.metadata.labels?.[Labels.InstanceType])).toEqual(['fake-small']);
    const replacement = after[0]?.metadata.name ?? '';
    for (const old of before) {
      expect(order.indexOf(`tainted ${old.status?.nodeName}`)).toBeGreaterThanOrEqual(0);
      expect(order.indexOf(`deleting ${old.metadata.name}`)).toBeGreaterThan(
        order.indexOf(`initialized ${replacement}`),
      );
    }
    expect([...(await podNodes(h, 'a')), ...(await podNodes(h, 'b'))]).toEqual([
      after[0]?.status?.nodeName,
      after[0]?.status?.nodeName,
    ]);
    expect(h.hourlyCost()).toBeCloseTo(0.1);
    expect(
      await h.metric('karpenter_voluntary_disruption_decisions_total', {
        decision: 'replace',
        consolidation_type: 'multi',
      }),
    ).toBe(1);
  }, 30_000);
});

describe('DisruptionController consolidation roll back', () => {
  /** A large node with two small pods, then fake-small allowed: a replace command is decided. */
  async function decided(controller = {}) {
    const h = await startControllerHarness({
      requirements: onlyTypes('fake-large'),
      deployments: [{ name: 'web', replicas: 2, requests: { cpu: '500m', memory: '1Gi' } }],
      controller,
    });
    const [large] = await h.claims();
    // The only cheaper type is fake-small, so the replacement may launch nothing else.
    await allowTypes(h, 'fake-small', 'fake-large');
    await h.advance(10_000);
    const node = large?.status?.nodeName ?? '';
    expect((await h.nodes()).find((n) => n.metadata.name === node)?.spec.taints).toContainEqual(
      expect.objectContaining({ key: 'karpenter.sh/disrupted' }),
    );
    return { h, claim: large?.metadata.name ?? '', node };
  }

  async function expectKept(h: ControllerHarness, claim: string, node: string) {
    const n = (await h.nodes()).find((x) => x.metadata.name === node);
    expect(n).toBeDefined();
    expect(hasDisruptedTaint(n!)).toBe(false);
    const c = (await h.claims()).find((x) => x.metadata.name === claim);
    expect(c?.metadata.deletionTimestamp).toBeUndefined();
    expect(new Set(await podNodes(h, 'web'))).toEqual(new Set([node]));
    expect(await h.metric('karpenter_nodeclaims_disrupted_total', { reason: 'underutilized' })).toBe(0);
  }

  it('keeps the candidate when the replacement cannot launch, and uses another type once one is allowed', async () => {
    const { h, claim, node } = await decided();
    // The cloud runs out of fake-small after the decision: the replacement's launch fails.
    const now = h.env.clock.now();
    h.env.provider.addOutage({ from: now, until: now + 3_600_000, match: { instanceType: 'fake-small' } });
    await h.advance(16_000);
    await expectKept(h, claim, node);
    const aborted = h.events.withReason(DisruptionEventReasons.DisruptionAborted);
    expect(aborted.map((e) => [e.object.kind, e.object.metadata.name])).toContainEqual(['Node', node]);
    expect(aborted[0]?.message).toMatch(
      /^Not disrupted: replacement NodeClaim \S+ was deleted before it initialized$/,
    );
    expect(h.logs).toContainEqual(
      expect.objectContaining({
        msg: 'disruption command abandoned',
        candidates: [node],
        why: expect.stringMatching(/was deleted before it initialized/),
      }),
    );
    const failures = { decision: 'replace', reason: 'underutilized', consolidation_type: 'single' };
    expect(await h.metric('karpenter_voluntary_disruption_queue_failures_total', failures)).toBe(1);
    // fake-small is marked unavailable now: later passes find no cheaper type and keep the node.
    await h.advance(60_000);
    await expectKept(h, claim, node);
    expect((await h.claims()).length).toBe(1);
    // Once another cheaper type is allowed, the node is replaced with it.
    await allowTypes(h, 'fake-small', 'fake-medium', 'fake-large');
    await h.advance(120_000);
    expect((await h.claims()).map((c) => c.metadata.labels?.[Labels.InstanceType])).toEqual(['fake-medium']);
    expect(h.hourlyCost()).toBeCloseTo(0.2);
  }, 30_000);

  it('keeps the candidate and deletes the replacement when it does not initialize in time', async () => {
    // Nodes take 20 s to register; give replacements 5 s.
    const { h, claim, node } = await decided({ replacementTimeoutMs: 5_000 });
    await h.advance(15_000);
    const replacement = (await h.claims()).find((c) => c.metadata.name !== claim);
    expect(replacement).toBeDefined();
    await h.advance(5_000);
    await expectKept(h, claim, node);
    const gone = (await h.claims()).find((c) => c.metadata.name === replacement?.metadata.name);
    expect(gone === undefined || gone.metadata.deletionTimestamp !== undefined).toBe(true);
    expect(h.events.withReason(DisruptionEventReasons.DisruptionAborted)[0]?.message).toBe(
      'Not disrupted: replacements did not initialize in time',
    );
    expect(h.logs).toContainEqual(
      expect.objectContaining({
        msg: 'disruption command abandoned',
        why: 'replacements did not initialize in time',
      }),
    );
    expect(
      await h.metric('karpenter_voluntary_disruption_queue_failures_total', {
        decision: 'replace',
        reason: 'underutilized',
        consolidation_type: 'single',
      }),
    ).toBe(1);
  }, 30_000);
});

describe('DisruptionController consolidation time budgets', () => {
  it('counts and logs a search stopped at its budget, naming the nodes it did not try', async () => {
    // A search clock that moves 100 s per read: multi-node's first check is past its 60 s, so
    // it never simulates; single-node simulates one candidate (at 100 s) and stops at 200 s.
    let searchNow = 0;
    const searchClock = { now: () => (searchNow += 100_000) };
    const h = await startControllerHarness({
      requirements: onlyTypes('fake-medium'),
      deployments: [],
      disruption: { budgets: [{ nodes: '100%' }] },
      controller: { disruption: { searchClock } },
    });
    for (const name of ['a', 'b', 'c']) {
      await h.deploy({ name, replicas: 4 });
      await h.advance(60_000);
    }
    await h.scale('a', 1);
    await h.scale('b', 1);
    await h.scale('c', 1);
    await h.advance(10_000);
    const timeouts = (type: string) =>
      h.metric('karpenter_voluntary_disruption_consolidation_timeouts_total', { consolidation_type: type });
    expect(await timeouts('multi')).toBeGreaterThan(0);
    expect(await timeouts('single')).toBeGreaterThan(0);
    const nodes = (await h.nodes()).map((n) => n.metadata.name).sort();
    const multi = h.logs
      .filter((l) => l.method === 'multi-node-consolidation' && l.simulations !== undefined)
      .at(-1);
    expect(multi).toMatchObject({ budgetMs: 60_000, elapsedMs: 100_000, simulations: 0, skipped: 3 });
    expect([...((multi?.skippedNodes ?? []) as string[])].sort()).toEqual(nodes);
    expect(String(multi?.msg)).toMatch(/; no command found; not tried: /);
    const single = h.logs
      .filter((l) => l.method === 'single-node-consolidation' && l.simulations !== undefined)
      .at(-1);
    expect(single).toMatchObject({ budgetMs: 180_000, elapsedMs: 200_000, simulations: 1, skipped: 2 });
    expect(String(single?.msg)).toMatch(
      /^single-node-consolidation stopped at its time budget of 180 s after 200 s and 1 simulation; not tried: /,
    );
  }, 30_000);
});
