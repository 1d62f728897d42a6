import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { NodeClaims, NodePools, Nodes } from '../../kube/resource-types.js';
import { getCondition } from '../../lifecycle/conditions.js';
import { EventReasons } from '../../lifecycle/events.js';
import { ControllerEnv } from '../../testing/controller-env.js';
import { lifecycleDependencies } from '../../testing/lifecycle-env.js';
import { aNodeFor } from '../../testing/node-builder.js';
import { aNodeClaimFor } from '../../testing/nodeclaim-builder.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { NodeClaimDisruptionController } from './nodeclaim-disruption-controller.js';

const MIN = 60_000;
const launched = {
  type: 'Launched',
  status: 'True',
  reason: 'Launched',
  message: '',
  lastTransitionTime: '2026-03-02T09:00:00Z',
} as const;

async function setup(recheckIntervalMs = 5 * MIN) {
  const lines: string[] = [];
  const env = new ControllerEnv({
    logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
  });
  await env.start(new NodeClaimDisruptionController(lifecycleDependencies(env), { recheckIntervalMs }));
  const pool = await env.cluster.create(NodePools, aNodePool());
  /** A claim as launch leaves it: providerID and Launched=True. */
  const launch = (name: string) =>
    env.create(
      NodeClaims,
      aNodeClaimFor(pool, {
        metadata: { name },
        status: { providerID: `fake://${name}`, conditions: [launched] },
      }),
    );
  const drifted = async (name: string) =>
    getCondition((await env.find(NodeClaims, name))?.status?.conditions, 'Drifted');
  const logs = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { env, pool, launch, drifted, logs };
}

describe('nodeclaim.disruption', () => {
  it('notices provider drift at the next recheck, with the provider reason, and publishes one event', async () => {
    const { env, launch, drifted } = await setup();
    await launch('default-a1');
    await env.settle();
    expect(await drifted('default-a1')).toBeUndefined();
    expect(new Set(env.cloudProvider.calls.isDrifted.map((c) => c.metadata.name))).toEqual(
      new Set(['default-a1']),
    );

    env.cloudProvider.setDrifted('fake://default-a1', 'AMIDrift');
    await env.advance(5 * MIN - 1);
    expect(await drifted('default-a1')).toBeUndefined();
    await env.advance(1);
    expect(await drifted('default-a1')).toMatchObject({
      status: 'True',
      reason: 'AMIDrift',
      message: 'cloud provider fake reports drift: AMIDrift',
      lastTransitionTime: new Date(env.clock.now()).toISOString().replace('.000Z', 'Z'),
    });
    const since = (await drifted('default-a1'))?.lastTransitionTime;
    await env.advance(30 * MIN);
    expect((await drifted('default-a1'))?.lastTransitionTime).toBe(since);
    expect(env.events.withReason(EventReasons.Drifted).map((e) => e.message)).toEqual([
      "NodeClaim drifted (AMIDrift): cloud provider fake reports drift: AMIDrift; disruption replaces it within the NodePool's budgets",
    ]);
  });

  it('clears the condition once the provider no longer reports drift', async () => {
    const { env, launch, drifted } = await setup();
    env.cloudProvider.setDrifted('fake://default-a1', 'SecurityGroupDrift');
    await launch('default-a1');
    await env.settle();
    expect((await drifted('default-a1'))?.status).toBe('True');
    env.cloudProvider.setDrifted('fake://default-a1', undefined);
    await env.advance(5 * MIN);
    expect(await drifted('default-a1')).toBeUndefined();
    expect((await env.find(NodeClaims, 'default-a1'))?.status?.conditions?.map((c) => c.type)).toEqual([
      'Launched',
    ]);
  });

  it('writes nothing while the verdict holds: rechecks leave the resourceVersion alone', async () => {
    const { env, launch } = await setup();
    env.cloudProvider.setDrifted('fake://default-a1', 'AMIDrift');
    await launch('default-a1');
    await env.settle();
    const version = (await env.find(NodeClaims, 'default-a1'))?.metadata.resourceVersion;
    const calls = env.cloudProvider.calls.isDrifted.length;
    await env.advance(60 * MIN);
    expect((await env.find(NodeClaims, 'default-a1'))?.metadata.resourceVersion).toBe(version);
    // One check per 5 min recheck, and no extra reconciles triggered by our own writes.
    expect(env.cloudProvider.calls.isDrifted.length).toBe(calls + 12);
  });

  it('checks only Launched claims, and starts when Launched turns True', async () => {
    const { env, pool, drifted } = await setup();
    env.cloudProvider.setDrifted('fake://default-b2', 'AMIDrift');
    await env.cluster.create(NodeClaims, aNodeClaimFor(pool, { metadata: { name: 'default-b2' } }));
    await env.settle();
    await env.advance(10 * MIN);
    expect(env.cloudProvider.calls.isDrifted).toEqual([]);
    const claim = (await env.find(NodeClaims, 'default-b2')) as NodeClaim;
    await env.cluster.updateStatus(NodeClaims, {
      ...claim,
      status: { providerID: 'fake://default-b2', conditions: [launched] },
    });
    await env.settle();
    expect((await drifted('default-b2'))?.reason).toBe('AMIDrift');
  });

  it('marks NodePool template drift as soon as the pool changes, without asking the provider', async () => {
    const { env, launch, drifted } = await setup();
    await launch('default-a1');
    await env.settle();
    const calls = env.cloudProvider.calls.isDrifted.length;
    await env.cluster.patch(
      NodePools,
      { name: 'default' },
      { spec: { template: { metadata: { labels: { rollout: '2' } } } } },
    );
    await env.settle();
    expect(await drifted('default-a1')).toMatchObject({ status: 'True', reason: 'NodePoolDrifted' });
    expect((await drifted('default-a1'))?.message).toMatch(/^NodePool default template changed since launch/);
    expect(env.cloudProvider.calls.isDrifted.length).toBe(calls);
    // Reverting the edit makes the hash match again: no longer drifted.
    await env.cluster.patch(
      NodePools,
      { name: 'default' },
      { spec: { template: { metadata: { labels: null } } } },
    );
    await env.settle();
    expect(await drifted('default-a1')).toBeUndefined();
  });

  it("marks requirements drift from the registered Node's labels", async () => {
    const { env, pool, launch, drifted } = await setup();
    const claim = await launch('default-a1');
    await env.cluster.create(
      Nodes,
      aNodeFor(claim, { metadata: { name: 'node-a1', labels: { 'kubernetes.io/arch': 'amd64' } } }),
    );
    await env.cluster.updateStatus(NodeClaims, {
      ...(await env.find(NodeClaims, 'default-a1'))!,
      status: { ...claim.status, nodeName: 'node-a1' },
    });
    await env.settle();
    expect(await drifted('default-a1')).toBeUndefined();
    await env.cluster.patch(
      NodePools,
      { name: pool.metadata.name ?? '' },
      {
        spec: {
          template: {
            spec: { requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }] },
          },
        },
      },
    );
    await env.settle();
    expect(await drifted('default-a1')).toMatchObject({ status: 'True', reason: 'RequirementsDrifted' });
  });

  it('keeps the condition, logs the error with its reason and retries with backoff when isDrifted fails', async () => {
    const { env, launch, drifted, logs } = await setup();
    env.cloudProvider.setDrifted('fake://default-a1', 'AMIDrift');
    await launch('default-a1');
    await env.settle();
    expect((await drifted('default-a1'))?.status).toBe('True');

    env.cloudProvider.setDrifted('fake://default-a1', undefined);
    env.cloudProvider.failNext('isDrifted', new Error('ec2 DescribeImages throttled'), 3);
    const before = env.cloudProvider.calls.isDrifted.length;
    await env.advance(5 * MIN);
    // The failed check neither cleared nor crashed anything.
    expect((await drifted('default-a1'))?.status).toBe('True');
    const failure = logs().find((l) => String(l.msg).startsWith('could not check drift'));
    expect(failure?.msg).toContain('ec2 DescribeImages throttled');
    expect(failure?.controller).toBe('nodeclaim.disruption');
    expect(failure?.NodeClaim).toMatchObject({ name: 'default-a1' });
    // Retries after 1 s, then 2 s, then 4 s; the fourth call succeeds and clears the condition.
    expect(env.cloudProvider.calls.isDrifted.length).toBe(before + 1);
    await env.advance(1_000);
    expect(env.cloudProvider.calls.isDrifted.length).toBe(before + 2);
    await env.advance(2_000);
    expect(env.cloudProvider.calls.isDrifted.length).toBe(before + 3);
    await env.advance(3_999);
    expect((await drifted('default-a1'))?.status).toBe('True');
    await env.advance(1);
    expect(env.cloudProvider.calls.isDrifted.length).toBe(before + 4);
    expect(await drifted('default-a1')).toBeUndefined();
  });

  it('requeues each claim at the injected interval', async () => {
    const { env, launch } = await setup(90_000);
    await launch('default-a1');
    await env.settle();
    expect(env.manager.requeueAt('nodeclaim.disruption', { name: 'default-a1' })).toBe(
      env.clock.now() + 90_000,
    );
  });
});
