import { afterEach, describe, expect, it } from 'vitest';
import type { Condition } from '../../apis/common/condition.js';
import type { Node } from '../../apis/kubernetes/node.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { NodeClaims, NodePools, Nodes } from '../../kube/resource-types.js';
import { ConditionTypes, getCondition } from '../../lifecycle/conditions.js';
import { EventReasons } from '../../lifecycle/events.js';
import type { SimulationEnvironment } from '../../simulation/environment/simulation-environment.js';
import { hasDisruptedTaint, isInitialized, startControllerHarness } from '../testing/controller-harness.js';

const MIN = 60_000;
const drifted = (claim: NodeClaim | undefined) =>
  getCondition(claim?.status?.conditions, ConditionTypes.Drifted);
const stops: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/**
 * The shared controller harness (provisioning, lifecycle with nodeclaim.disruption, the
 * disruption loop, on a simulated cloud and kubelet) with `replicas` pods of one Deployment, one
 * per node (hostname anti-affinity), only drift acting (consolidation off), and instances that
 * take 3 min to go — so a node being deleted still counts against the budget at the next pass.
 */
async function fleet(replicas: number, disruption: Record<string, unknown>) {
  const h = await startControllerHarness({
    disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: 'Never', ...disruption },
    deployments: [{ name: 'web', replicas, antiAffinity: 'kubernetes.io/hostname' }],
    cloud: { terminationLatency: 3 * MIN },
  });
  stops.push(
    () => h.env.stop(),
    () => h.manager.stop(),
  );
  await h.advance(MIN);
  const original = await h.claims();
  expect(original.length).toBe(replicas);
  expect(original.every(isInitialized)).toBe(true);
  return { ...h, original, timeline: recordTimeline(h.env, original) };
}

/**
 * Watches the original claims and their Nodes: how many were disrupted at once at most (tainted
 * karpenter.sh/disrupted, or being deleted, until gone), and at each original claim's deletion
 * which other claims were Initialized; and each claim's Drifted condition when first True.
 */
function recordTimeline(env: SimulationEnvironment, original: readonly NodeClaim[]) {
  const originalNames = new Set(original.map((c) => c.metadata.name ?? ''));
  const originalNodes = new Set(original.map((c) => c.status?.nodeName ?? ''));
  const claims = new Map<string, NodeClaim>();
  const disrupted = new Set<string>();
  const out = {
    maxDisruptedAtOnce: 0,
    /** Original claim -> names of the non-original claims Initialized when its deletion began. */
    initializedAtDeletion: new Map<string, string[]>(),
    /** Claim -> its Drifted condition when first seen True. */
    driftedSeen: new Map<string, Condition>(),
  };
  const count = (key: string, on: boolean) => {
    if (on) disrupted.add(key);
    else disrupted.delete(key);
    out.maxDisruptedAtOnce = Math.max(out.maxDisruptedAtOnce, disrupted.size);
  };
  const nodeWatch = env.cluster.watch(Nodes, (e) => {
    if (e.type === 'ERROR') return;
    const node = e.object as Node;
    if (!originalNodes.has(node.metadata.name)) return;
    const tainted = hasDisruptedTaint(node);
    count(
      `node/${node.metadata.name}`,
      e.type !== 'DELETED' && (tainted || node.metadata.deletionTimestamp !== undefined),
    );
  });
  const claimWatch = env.cluster.watch(NodeClaims, (e) => {
    if (e.type === 'ERROR') return;
    const claim = e.object;
    const name = claim.metadata.name ?? '';
    if (e.type === 'DELETED') claims.delete(name);
    else claims.set(name, claim);
    const condition = drifted(claim);
    if (condition?.status === 'True' && !out.driftedSeen.has(name)) out.driftedSeen.set(name, condition);
    if (!originalNames.has(name)) return;
    const deleting = e.type !== 'DELETED' && claim.metadata.deletionTimestamp !== undefined;
    if (deleting && !out.initializedAtDeletion.has(name)) {
      out.initializedAtDeletion.set(
        name,
        [...claims.values()]
          .filter((c) => !originalNames.has(c.metadata.name ?? ''))
          .filter(isInitialized)
          .map((c) => c.metadata.name ?? ''),
      );
    }
  });
  stops.push(
    () => nodeWatch.stop(),
    () => claimWatch.stop(),
  );
  return out;
}

describe('drift end to end: nodeclaim.disruption marks, the disruption loop replaces', () => {
  it('replaces a node whose image the provider reports drifted, launching and initializing the replacement first', async () => {
    const { env, events, advance, claims, original, timeline } = await fleet(2, {});
    const [victim, other] = original as [NodeClaim, NodeClaim];
    env.provider.setDrift(victim.status?.providerID ?? '', 'AMIDrift');
    // Provider drift has no Kubernetes event: it is seen at the next 5 min recheck.
    await advance(5 * MIN);
    expect([...timeline.driftedSeen.keys()]).toEqual([victim.metadata.name]);
    expect(timeline.driftedSeen.get(victim.metadata.name ?? '')).toMatchObject({ reason: 'AMIDrift' });
    expect(events.withReason(EventReasons.Drifted).map((e) => e.object.metadata.name)).toEqual([
      victim.metadata.name,
    ]);

    await advance(10 * MIN);
    const now = await claims();
    const names = now.map((c) => c.metadata.name);
    expect(names).not.toContain(victim.metadata.name);
    expect(names).toContain(other.metadata.name);
    expect(now.length).toBe(2);
    const replacement = now.find((c) => c.metadata.name !== other.metadata.name);
    expect(replacement !== undefined && isInitialized(replacement)).toBe(true);
    expect(drifted(replacement)).toBeUndefined();
    // The replacement was Initialized before the drifted claim's deletion began.
    expect(timeline.initializedAtDeletion.get(victim.metadata.name ?? '')).toContain(
      replacement?.metadata.name,
    );
    expect(timeline.initializedAtDeletion.size).toBe(1);
  }, 30_000);

  it('replaces every node after a NodePool template edit, one at a time under a budget of 1', async () => {
    const { env, advance, claims, original, timeline } = await fleet(3, { budgets: [{ nodes: '1' }] });
    await env.cluster.patch(
      NodePools,
      { name: 'default' },
      { spec: { template: { metadata: { labels: { rollout: '2' } } } } },
    );
    await advance(1_000);
    for (const c of original)
      expect(timeline.driftedSeen.get(c.metadata.name ?? '')).toMatchObject({ reason: 'NodePoolDrifted' });
    await advance(60 * MIN);
    const after = await claims();
    expect(after.length).toBe(3);
    const originalNames = new Set(original.map((c) => c.metadata.name));
    expect(after.filter((c) => originalNames.has(c.metadata.name))).toEqual([]);
    expect(after.every((c) => c.metadata.labels?.rollout === '2' && drifted(c) === undefined)).toBe(true);
    expect(timeline.maxDisruptedAtOnce).toBe(1);
    expect(timeline.initializedAtDeletion.size).toBe(3);
    for (const initialized of timeline.initializedAtDeletion.values())
      expect(initialized.length).toBeGreaterThan(0);
  }, 60_000);

  it('clears Drifted when the provider stops reporting it, and the node stays', async () => {
    const { env, advance, claims, original } = await fleet(1, {
      budgets: [{ nodes: '0', reasons: ['Drifted'] }, { nodes: '1' }],
    });
    const [claim] = original as [NodeClaim];
    env.provider.setDrift(claim.status?.providerID ?? '', 'SubnetDrift');
    await advance(5 * MIN);
    expect(drifted((await claims())[0])).toMatchObject({ status: 'True', reason: 'SubnetDrift' });
    env.provider.setDrift(claim.status?.providerID ?? '', undefined);
    await advance(5 * MIN);
    const [now] = await claims();
    expect(now?.metadata.name).toBe(claim.metadata.name);
    expect(drifted(now)).toBeUndefined();
  }, 30_000);
});
