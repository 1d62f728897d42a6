import { describe, expect, it } from 'vitest';
import { NodeClaims, NodePools } from '../../kube/resource-types.js';
import { EventReasons } from '../../lifecycle/events.js';
import { MetricNames } from '../../metrics/names.js';
import { ControllerEnv } from '../../testing/controller-env.js';
import { lifecycleDependencies } from '../../testing/lifecycle-env.js';
import { aNodeClaim, aNodeClaimFor } from '../../testing/nodeclaim-builder.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { NodeClaimLifecycleController } from '../lifecycle/nodeclaim-lifecycle-controller.js';
import { ExpirationController, expiryTime } from './expiration-controller.js';

const HOUR = 3_600_000;

describe('expiryTime', () => {
  it('is creation + expireAfter, and undefined for Never', () => {
    const created = '2026-03-02T09:00:00Z';
    expect(
      expiryTime(aNodeClaim({ metadata: { creationTimestamp: created }, spec: { expireAfter: '1h30m' } })),
    ).toBe(Date.parse(created) + 1.5 * HOUR);
    expect(
      expiryTime(aNodeClaim({ metadata: { creationTimestamp: created }, spec: { expireAfter: 'Never' } })),
    ).toBe(undefined);
    expect(expiryTime(aNodeClaim({ metadata: { creationTimestamp: created } }))).toBe(
      Date.parse(created) + 720 * HOUR,
    );
  });
});

describe('nodeclaim.expiration', () => {
  it('requeues each claim for its expiry time, also after unrelated changes, and never for Never', async () => {
    const env = new ControllerEnv();
    const deps = lifecycleDependencies(env);
    await env.start(new NodeClaimLifecycleController(deps), new ExpirationController(deps));
    const pool = await env.cluster.create(
      NodePools,
      aNodePool({ spec: { template: { spec: { expireAfter: '1h' } } } }),
    );
    await env.cluster.create(NodeClaims, aNodeClaimFor(pool, { metadata: { name: 'default-a1' } }));
    await env.cluster.create(
      NodeClaims,
      aNodeClaimFor(pool, { metadata: { name: 'default-b2' }, spec: { expireAfter: 'Never' } }),
    );
    await env.settle();
    const created = env.clock.now();
    await env.advance(60_000);
    await env.cluster.patch(NodeClaims, { name: 'default-a1' }, { metadata: { labels: { touched: 'yes' } } });
    await env.settle();
    expect(env.manager.requeueAt('nodeclaim.expiration', { name: 'default-a1' })).toBe(created + HOUR);
    expect(env.manager.requeueAt('nodeclaim.expiration', { name: 'default-b2' })).toBeUndefined();
  });

  it('deletes the claim at expiry with an event and the expired metric', async () => {
    const env = new ControllerEnv();
    const deps = lifecycleDependencies(env);
    await env.start(new ExpirationController(deps));
    await env.cluster.create(
      NodeClaims,
      aNodeClaim({ metadata: { name: 'c1' }, spec: { expireAfter: '2h' } }),
    );
    await env.cluster.create(
      NodeClaims,
      aNodeClaim({ metadata: { name: 'c2' }, spec: { expireAfter: 'Never' } }),
    );
    await env.settle();
    await env.advance(2 * HOUR - 1);
    expect(await env.find(NodeClaims, 'c1')).toBeDefined();
    await env.advance(1);
    expect(await env.find(NodeClaims, 'c1')).toBeUndefined();
    await env.advance(1000 * HOUR);
    expect(await env.find(NodeClaims, 'c2')).toBeDefined();
    expect(env.events.withReason(EventReasons.Expired).map((e) => e.object.metadata.name)).toEqual(['c1']);
    expect(
      await env.metric(MetricNames.NodeClaimsDisrupted, { reason: 'expired', nodepool: 'default' }),
    ).toBe(1);
  });
});
