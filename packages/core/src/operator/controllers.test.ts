import { describe, expect, it } from 'vitest';
import { resourceType } from '../kube/resource-type.js';
import { NodeClaims, NodePools } from '../kube/resource-types.js';
import { ControllerEnv } from '../testing/controller-env.js';
import { aNodeClaimFor } from '../testing/nodeclaim-builder.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { operatorControllers } from './controllers.js';

describe('operatorControllers', () => {
  it('runs nodeclaim.disruption with the lifecycle drift options: provider drift is marked at the recheck', async () => {
    const env = new ControllerEnv();
    const { controllers } = operatorControllers(
      {
        cluster: env.cluster,
        clock: env.clock,
        events: env.events,
        registry: env.registry,
        provider: { cloudProvider: env.cloudProvider, controllers: [], nodeClassTypes: [] },
      },
      { lifecycle: { drift: { recheckIntervalMs: 60_000 } } },
    );
    const drift = controllers.filter((c) => c.name === 'nodeclaim.disruption');
    expect(drift.length).toBe(1);
    await env.start(...drift);
    const pool = await env.cluster.create(NodePools, aNodePool());
    await env.create(
      NodeClaims,
      aNodeClaimFor(pool, {
        metadata: { name: 'default-a1' },
        status: {
          providerID: 'fake://default-a1',
          conditions: [
            {
              type: 'Launched',
              status: 'True',
              reason: 'Launched',
              message: '',
              lastTransitionTime: '2026-03-02T09:00:00Z',
            },
          ],
        },
      }),
    );
    await env.settle();
    env.cloudProvider.setDrifted('fake://default-a1', 'AMIDrift');
    await env.advance(60_000);
    const claim = await env.find(NodeClaims, 'default-a1');
    expect(claim?.status?.conditions?.find((c) => c.type === 'Drifted')?.reason).toBe('AMIDrift');
  });

  it('names every controller once beside a provider whose NodeClass status controller is <kind>.status', () => {
    // The manager refuses a name registered twice, so a clash stops the controller at start-up.
    const env = new ControllerEnv();
    const nodeClasses = resourceType({
      apiVersion: 'karpenter.test.sh/v1',
      kind: 'TestNodeClass',
      namespaced: false,
    });
    const providerStatus = {
      name: 'testnodeclass.status',
      watches: [],
      reconcile: async () => undefined,
    };
    const { controllers } = operatorControllers({
      cluster: env.cluster,
      clock: env.clock,
      events: env.events,
      registry: env.registry,
      provider: {
        cloudProvider: env.cloudProvider,
        controllers: [providerStatus],
        nodeClassTypes: [nodeClasses],
      },
    });
    const names = controllers.map((c) => c.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
    expect(names).toContain('testnodeclass.status');
    expect(names).toContain('testnodeclass.status.metrics');
  });
});
