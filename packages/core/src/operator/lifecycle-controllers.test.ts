import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Labels } from '../apis/labels.js';
import { InternalError } from '../kube/errors.js';
import { NodeClaims, NodePools, Nodes } from '../kube/resource-types.js';
import { getCondition } from '../lifecycle/conditions.js';
import { ControllerEnv } from '../testing/controller-env.js';
import { lifecycleDependencies } from '../testing/lifecycle-env.js';
import { aNodeFor } from '../testing/node-builder.js';
import { aNodeClaimFor } from '../testing/nodeclaim-builder.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { lifecycleControllers } from './controllers.js';
import { Manager } from './runtime/manager.js';

describe('lifecycleControllers', () => {
  it('wires every controller under its name and runs a NodePool and its node end to end', async () => {
    const env = new ControllerEnv();
    const controllers = lifecycleControllers(lifecycleDependencies(env));
    expect(controllers.map((c) => c.name)).toEqual([
      'nodeclaim.lifecycle',
      'node.termination',
      'node.health',
      'nodeclaim.expiration',
      'nodeclaim.disruption',
      'nodeclaim.garbagecollection',
      'nodepool.hash',
      'nodepool.counter',
      'nodepool.readiness',
    ]);
    await env.start(...controllers);
    const pool = await env.cluster.create(NodePools, aNodePool());
    await env.settle();
    const ready = await env.find(NodePools, 'default');
    expect(getCondition(ready?.status?.conditions, 'Ready')?.status).toBe('True');
    await env.cluster.create(NodeClaims, aNodeClaimFor(pool, { metadata: { name: 'default-a1' } }));
    await env.settle();
    await env.cluster.create(Nodes, aNodeFor((await env.find(NodeClaims, 'default-a1'))!));
    await env.advance(3 * 60_000);
    expect(
      getCondition((await env.find(NodeClaims, 'default-a1'))?.status?.conditions, 'Ready')?.status,
    ).toBe('True');
    expect((await env.find(NodePools, 'default'))?.status).toMatchObject({
      nodes: 1,
      resources: { cpu: '2' },
    });
    await env.cluster.delete(NodeClaims, { name: 'default-a1' });
    await env.advance(30_000);
    expect(await env.find(Nodes, 'default-a1')).toBeUndefined();
    expect(await env.find(NodeClaims, 'default-a1')).toBeUndefined();
    expect(env.cloudProvider.instances()).toEqual([]);
    expect((await env.find(NodePools, 'default'))?.status).toMatchObject({ nodes: 0 });
    await env.stop();
  });

  it('a controller restart in the middle of a launch leaves no leaked instance and no orphaned NodeClaim', async () => {
    const env = new ControllerEnv();
    const deps = lifecycleDependencies(env);
    await env.start(...lifecycleControllers(deps));
    const pool = await env.cluster.create(NodePools, aNodePool());
    // The first controller dies after CloudProvider.create, before it records the launch.
    const removeHook = env.cluster.addAdmissionHook(
      (request) => {
        if (request.subresource === 'status') throw new InternalError('controller died');
      },
      [NodeClaims],
    );
    await env.cluster.create(NodeClaims, aNodeClaimFor(pool, { metadata: { name: 'default-a1' } }));
    await env.settle();
    expect(env.cloudProvider.instances()).toHaveLength(1);
    await env.stop();
    removeHook();

    const restarted = new Manager({
      cluster: env.cluster,
      clock: env.clock,
      timers: env.timers,
      registry: new Registry(),
      logger: pino({ level: 'silent' }),
      settleCluster: () => env.cluster.settled(),
    });
    restarted.register(...lifecycleControllers(deps)).start();
    await restarted.synced();
    const settle = () => restarted.settled();
    await env.timers.advance(5 * 60_000, settle);
    const claim = await env.find(NodeClaims, 'default-a1');
    expect(claim?.status?.providerID).toBe('fake://default-a1');
    expect(claim?.metadata.labels?.[Labels.InstanceType]).toBe('fake-small');
    expect(env.cloudProvider.instances().map((i) => i.status?.providerID)).toEqual(['fake://default-a1']);
    await restarted.stop();
  });
});
