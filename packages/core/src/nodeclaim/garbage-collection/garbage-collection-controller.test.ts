import { describe, expect, it } from 'vitest';
import { NodeClaims, NodePools, Nodes } from '../../kube/resource-types.js';
import { EventReasons } from '../../lifecycle/events.js';
import { MetricNames } from '../../metrics/names.js';
import { NodeTerminationController } from '../../node/termination/node-termination-controller.js';
import { UnsyncedRetryMs } from '../../operator/runtime/cache-sync.js';
import { ControllerEnv } from '../../testing/controller-env.js';
import { lifecycleDependencies } from '../../testing/lifecycle-env.js';
import { aNodeFor } from '../../testing/node-builder.js';
import { aNodeClaim, aNodeClaimFor } from '../../testing/nodeclaim-builder.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { NodeClaimLifecycleController } from '../lifecycle/nodeclaim-lifecycle-controller.js';
import { GarbageCollectionController, planGarbageCollection } from './garbage-collection-controller.js';

const MIN = 60_000;
const options = { intervalMs: 2 * MIN, instanceGraceMs: 30_000, claimGraceMs: 10_000 };

describe('planGarbageCollection', () => {
  const now = Date.parse('2026-03-02T09:10:00Z');
  const instance = (name: string, launched: string) =>
    aNodeClaim({ metadata: { name, creationTimestamp: launched }, status: { providerID: `fake://${name}` } });

  it('collects only old instances that no claim, node or claim name accounts for', () => {
    const old = '2026-03-02T09:00:00Z';
    const instances = [
      instance('leak', old),
      instance('young', '2026-03-02T09:09:50Z'),
      instance('by-id', old),
      instance('by-node', old),
      instance('in-flight', old),
    ];
    const claims = [
      aNodeClaim({ metadata: { name: 'other' }, status: { providerID: 'fake://by-id' } }),
      aNodeClaim({ metadata: { name: 'in-flight' } }),
    ];
    const nodes = [aNodeFor(instance('by-node', old))];
    const plan = planGarbageCollection(instances, claims, nodes, now, options, () => now);
    expect(plan.instances.map((i) => i.metadata.name)).toEqual(['leak']);
  });

  it('collects a second instance of a claim that records another providerID: providerIDs decide', () => {
    const old = '2026-03-02T09:00:00Z';
    const first = aNodeClaim({
      metadata: { name: 'web', creationTimestamp: old },
      status: { providerID: 'fake://i-1' },
    });
    const second = aNodeClaim({
      metadata: { name: 'web', creationTimestamp: old },
      status: { providerID: 'fake://i-2' },
    });
    const claims = [aNodeClaim({ metadata: { name: 'web' }, status: { providerID: 'fake://i-1' } })];
    const plan = planGarbageCollection([first, second], claims, [], now, options, () => now);
    expect(plan.instances.map((i) => i.status?.providerID)).toEqual(['fake://i-2']);
  });

  it('collects launched claims whose instance is not listed, after the grace period', () => {
    const launched = (t: string) => [
      { type: 'Launched', status: 'True' as const, reason: 'Launched', message: '', lastTransitionTime: t },
    ];
    const claims = [
      aNodeClaim({
        metadata: { name: 'gone' },
        status: { providerID: 'fake://gone', conditions: launched('2026-03-02T09:00:00Z') },
      }),
      aNodeClaim({
        metadata: { name: 'fresh' },
        status: { providerID: 'fake://fresh', conditions: launched('2026-03-02T09:09:55Z') },
      }),
      aNodeClaim({
        metadata: { name: 'alive' },
        status: { providerID: 'fake://alive', conditions: launched('2026-03-02T09:00:00Z') },
      }),
      aNodeClaim({ metadata: { name: 'unlaunched' } }),
    ];
    const plan = planGarbageCollection(
      [instance('alive', '2026-03-02T09:00:00Z')],
      claims,
      [],
      now,
      options,
      () => now,
    );
    expect(plan.claims.map((c) => c.metadata.name)).toEqual(['gone']);
  });
});

describe('nodeclaim.garbagecollection', () => {
  async function setup() {
    const env = new ControllerEnv();
    const deps = lifecycleDependencies(env);
    await env.start(
      new NodeClaimLifecycleController(deps),
      new NodeTerminationController(deps),
      new GarbageCollectionController(deps, options),
    );
    const pool = await env.cluster.create(NodePools, aNodePool());
    return { env, pool };
  }

  it('terminates a leaked instance once it is older than 30 s, on the next poll', async () => {
    const { env } = await setup();
    env.cloudProvider.addInstance(aNodeClaim({ metadata: { name: 'leaked-1' } }));
    // The pass at start came before the caches synced, so the first one ran UnsyncedRetryMs later.
    await env.advance(UnsyncedRetryMs + 2 * MIN - 1);
    expect(env.cloudProvider.instances()).toHaveLength(1);
    await env.advance(1);
    expect(env.cloudProvider.instances()).toEqual([]);
  });

  it('never collects the instance of a claim that is still launching or running', async () => {
    const { env, pool } = await setup();
    await env.cluster.create(NodeClaims, aNodeClaimFor(pool, { metadata: { name: 'default-a1' } }));
    await env.settle();
    await env.cluster.create(Nodes, aNodeFor((await env.find(NodeClaims, 'default-a1'))!));
    await env.advance(10 * MIN);
    expect(env.cloudProvider.instances().map((i) => i.metadata.name)).toEqual(['default-a1']);
    expect(await env.find(NodeClaims, 'default-a1')).toBeDefined();
  });

  it('deletes a claim whose instance vanished, unless its Node is still Ready', async () => {
    const { env, pool } = await setup();
    await env.cluster.create(NodeClaims, aNodeClaimFor(pool, { metadata: { name: 'default-a1' } }));
    await env.cluster.create(NodeClaims, aNodeClaimFor(pool, { metadata: { name: 'default-b2' } }));
    await env.settle();
    await env.cluster.create(Nodes, aNodeFor((await env.find(NodeClaims, 'default-a1'))!));
    await env.cluster.create(
      Nodes,
      aNodeFor((await env.find(NodeClaims, 'default-b2'))!, {}, { ready: 'False' }),
    );
    await env.settle();
    env.cloudProvider.removeInstance('fake://default-a1');
    env.cloudProvider.removeInstance('fake://default-b2');
    await env.advance(2 * MIN);
    await env.advance(10_000);
    expect(await env.find(NodeClaims, 'default-a1')).toBeDefined();
    expect(await env.find(NodeClaims, 'default-b2')).toBeUndefined();
    expect(await env.find(Nodes, 'default-b2')).toBeUndefined();
    expect(env.events.withReason(EventReasons.GarbageCollected).map((e) => e.object.metadata.name)).toEqual([
      'default-b2',
    ]);
    expect(await env.metric(MetricNames.NodeClaimsDisrupted, { reason: 'garbage_collected' })).toBe(1);
  });
});
