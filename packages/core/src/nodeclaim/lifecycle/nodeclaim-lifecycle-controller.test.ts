import { describe, expect, it } from 'vitest';
import { Finalizers, Labels, Taints } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import {
  CreateError,
  InsufficientCapacityError,
  NodeClassNotReadyError,
} from '../../cloudprovider/errors.js';
import { InternalError } from '../../kube/errors.js';
import { NodeClaims, NodePools, Nodes } from '../../kube/resource-types.js';
import { getCondition } from '../../lifecycle/conditions.js';
import { EventReasons } from '../../lifecycle/events.js';
import { MetricNames } from '../../metrics/names.js';
import { ControllerEnv } from '../../testing/controller-env.js';
import { lifecycleDependencies } from '../../testing/lifecycle-env.js';
import { aNodeFor } from '../../testing/node-builder.js';
import { aNodeClaimFor } from '../../testing/nodeclaim-builder.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { NodeClaimLifecycleController } from './nodeclaim-lifecycle-controller.js';

const MIN = 60_000;

async function setup(
  template: Parameters<typeof aNodePool>[0] = {},
  claimOverrides: Parameters<typeof aNodeClaimFor>[1] = {},
) {
  const env = new ControllerEnv();
  await env.start(new NodeClaimLifecycleController(lifecycleDependencies(env)));
  const pool = await env.cluster.create(NodePools, aNodePool(template));
  const create = async (name = 'default-a1') =>
    env.cluster.create(NodeClaims, aNodeClaimFor(pool, { metadata: { name }, ...claimOverrides }));
  return { env, pool, create };
}

const claimOf = (env: ControllerEnv, name = 'default-a1') => env.find(NodeClaims, name);
const condition = (claim: NodeClaim | undefined, type: string) =>
  getCondition(claim?.status?.conditions, type);

describe('nodeclaim.lifecycle', () => {
  it('launches, registers and initializes a NodeClaim until Ready', async () => {
    const { env, create } = await setup({
      spec: {
        template: {
          metadata: { labels: { team: 'web' }, annotations: { owner: 'me' } },
          spec: {
            taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }],
            startupTaints: [{ key: 'cni.example.com/not-ready', effect: 'NoSchedule' }],
          },
        },
      },
    });
    await create();
    await env.settle();
    let claim = await claimOf(env);
    expect(claim?.metadata.finalizers).toContain(Finalizers.Termination);
    expect(claim?.status?.providerID).toBe('fake://default-a1');
    expect(claim?.status?.imageID).toBe('fake-image-1');
    expect(claim?.status?.capacity).toMatchObject({ cpu: '2' });
    expect(claim?.metadata.labels).toMatchObject({
      team: 'web',
      [Labels.NodePool]: 'default',
      [Labels.InstanceType]: 'fake-small',
      [Labels.CapacityType]: 'spot',
    });
    expect(condition(claim, 'Launched')?.status).toBe('True');
    expect(condition(claim, 'Registered')).toMatchObject({ status: 'Unknown', reason: 'NodeNotFound' });
    expect(condition(claim, 'Ready')?.status).toBe('Unknown');
    const lifecycleEvents = () =>
      env.events.events
        .filter((e) => ['Launched', 'Registered', 'Initialized'].includes(e.reason))
        .map((e) => [e.object.kind, e.object.metadata.name, e.type, e.reason, e.message]);
    expect(lifecycleEvents()).toEqual([
      [
        'NodeClaim',
        'default-a1',
        'Normal',
        EventReasons.Launched,
        'Launched instance fake://default-a1 (fake-small spot in test-zone-a)',
      ],
    ]);

    // The kubelet registers the node with the unregistered taint and the startup taint.
    await env.cluster.create(Nodes, aNodeFor(claim!));
    await env.settle();
    const node = await env.find(Nodes, 'default-a1');
    expect(node?.metadata.labels).toMatchObject({ [Labels.Registered]: 'true', team: 'web' });
    expect(node?.metadata.annotations).toMatchObject({ owner: 'me' });
    expect(node?.metadata.finalizers).toEqual([Finalizers.Termination]);
    expect(node?.metadata.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'NodeClaim',
        name: 'default-a1',
        uid: claim?.metadata.uid,
        blockOwnerDeletion: true,
      }),
    ]);
    expect(node?.spec.taints).toEqual([
      { key: 'dedicated', value: 'web', effect: 'NoSchedule' },
      { key: 'cni.example.com/not-ready', effect: 'NoSchedule' },
    ]);
    claim = await claimOf(env);
    expect(claim?.status?.nodeName).toBe('default-a1');
    expect(condition(claim, 'Registered')?.status).toBe('True');
    expect(condition(claim, 'Initialized')).toMatchObject({
      status: 'Unknown',
      reason: 'StartupTaintsExist',
    });

    // A DaemonSet on the node removes the startup taint.
    await env.cluster.patch(
      Nodes,
      { name: 'default-a1' },
      {
        spec: { taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }] },
      },
    );
    await env.settle();
    claim = await claimOf(env);
    expect(condition(claim, 'Initialized')?.status).toBe('True');
    expect(condition(claim, 'Ready')?.status).toBe('True');
    expect((await env.find(Nodes, 'default-a1'))?.metadata.labels?.[Labels.Initialized]).toBe('true');
    expect(env.cloudProvider.calls.create).toHaveLength(1);
    expect(await env.metric(MetricNames.NodesCreated, { nodepool: 'default' })).toBe(1);
    // Settled means settled: nothing more happens as time passes.
    await env.advance(30 * MIN);
    expect(env.cloudProvider.calls.create).toHaveLength(1);
    expect(await claimOf(env)).toBeDefined();
    // Each step announced once, in order, on the claim.
    expect(lifecycleEvents().map((e) => [e[3], e[4]])).toEqual([
      [EventReasons.Launched, 'Launched instance fake://default-a1 (fake-small spot in test-zone-a)'],
      [EventReasons.Registered, 'Node default-a1 registered'],
      [
        EventReasons.Initialized,
        'Node default-a1 initialized: Ready, startup taints removed, resources registered',
      ],
    ]);
  });

  it('waits for Ready and for requested extended resources before initializing', async () => {
    const { env, create } = await setup(
      {},
      {
        spec: {
          requirements: [{ key: Labels.InstanceType, operator: 'In', values: ['fake-gpu'] }],
          resources: { requests: { cpu: '1', 'nvidia.com/gpu': '1' } },
        },
      },
    );
    await create();
    await env.settle();
    const claim = (await claimOf(env))!;
    expect(claim.metadata.labels?.[Labels.InstanceType]).toBe('fake-gpu');
    await env.cluster.create(
      Nodes,
      aNodeFor(
        claim,
        { status: { allocatable: { cpu: '8', memory: '32Gi', pods: '110', 'nvidia.com/gpu': '0' } } },
        { ready: 'False' },
      ),
    );
    await env.settle();
    expect(condition(await claimOf(env), 'Initialized')?.reason).toBe('NodeNotReady');
    await env.cluster.patchStatus(
      Nodes,
      { name: 'default-a1' },
      {
        status: {
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              lastTransitionTime: '2026-03-02T09:00:00Z',
            },
          ],
        },
      },
    );
    await env.settle();
    expect(condition(await claimOf(env), 'Initialized')?.reason).toBe('ResourceNotRegistered');
    await env.cluster.patchStatus(
      Nodes,
      { name: 'default-a1' },
      {
        status: { allocatable: { 'nvidia.com/gpu': '1' } },
      },
    );
    await env.settle();
    expect(condition(await claimOf(env), 'Ready')?.status).toBe('True');
  });

  it('does not sync taints onto a Node labelled do-not-sync-taints, but still removes the unregistered taint', async () => {
    const { env, create } = await setup({
      spec: { template: { spec: { taints: [{ key: 'dedicated', effect: 'NoSchedule' }] } } },
    });
    await create();
    await env.settle();
    const claim = (await claimOf(env))!;
    await env.cluster.create(
      Nodes,
      aNodeFor(claim, {
        metadata: { labels: { [Labels.DoNotSyncTaints]: 'true' } },
        spec: {
          taints: [{ ...Taints.Unregistered }, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }],
        },
      }),
    );
    await env.settle();
    const node = await env.find(Nodes, 'default-a1');
    expect(node?.spec.taints).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    expect(condition(await claimOf(env), 'Initialized')?.reason).toBe('KnownEphemeralTaintsExist');
  });

  it('warns when the Node registers without the unregistered taint', async () => {
    const { env, create } = await setup();
    await create();
    await env.settle();
    await env.cluster.create(Nodes, aNodeFor((await claimOf(env))!, {}, { withoutUnregisteredTaint: true }));
    await env.settle();
    expect(condition(await claimOf(env), 'Registered')?.status).toBe('True');
    expect(env.events.withReason(EventReasons.UnregisteredTaintMissing)).toHaveLength(1);
  });

  it('deletes the claim on insufficient capacity without looking for an instance', async () => {
    const { env, create } = await setup();
    env.cloudProvider.failNext(
      'create',
      new InsufficientCapacityError('no spot capacity', ['spot:fake-small:test-zone-a']),
    );
    await create();
    await env.settle();
    expect(await claimOf(env)).toBeUndefined();
    expect(env.cloudProvider.calls.list).toBe(0);
    expect(env.events.withReason(EventReasons.InsufficientCapacity)[0]?.message).toMatch(/no spot capacity/);
    expect(
      await env.metric(MetricNames.NodeClaimsDisrupted, {
        reason: 'insufficient_capacity',
        nodepool: 'default',
      }),
    ).toBe(1);
    expect(await env.metric(MetricNames.NodeClaimsTerminated)).toBe(1);
  });

  it('deletes the claim when the NodeClass is not ready, with events on the claim and the NodePool', async () => {
    const { env, create } = await setup();
    env.cloudProvider.failNext('create', new NodeClassNotReadyError('TestNodeClass default is not Ready'));
    await create();
    await env.settle();
    expect(await claimOf(env)).toBeUndefined();
    const events = env.events.withReason(EventReasons.NodeClassNotReady);
    expect(events.map((e) => e.object.kind)).toEqual(['NodeClaim', 'NodePool']);
    expect(await env.metric(MetricNames.NodeClaimsDisrupted, { reason: 'nodeclass_not_ready' })).toBe(1);
  });

  it('keeps the claim with the provider reason on CreateError and retries with backoff', async () => {
    const { env, create } = await setup();
    env.cloudProvider.failNext('create', new CreateError('SubnetsExhausted', 'no free IPs in subnet-1'), 2);
    await create();
    await env.settle();
    expect(condition(await claimOf(env), 'Launched')).toMatchObject({
      status: 'Unknown',
      reason: 'SubnetsExhausted',
      message: 'no free IPs in subnet-1',
    });
    expect(env.cloudProvider.calls.create).toHaveLength(1);
    await env.advance(999);
    expect(env.cloudProvider.calls.create).toHaveLength(1);
    await env.advance(1);
    expect(env.cloudProvider.calls.create).toHaveLength(2);
    await env.advance(2_000);
    expect(env.cloudProvider.calls.create).toHaveLength(3);
    expect(condition(await claimOf(env), 'Launched')?.status).toBe('True');
    // A Warning per failed attempt, with the provider's reason and message; then Launched.
    expect(
      env.events.events
        .filter((e) => e.reason === EventReasons.LaunchFailed || e.reason === EventReasons.Launched)
        .map((e) => [e.type, e.reason, e.message]),
    ).toEqual([
      ['Warning', 'LaunchFailed', 'Failed to launch NodeClaim: SubnetsExhausted: no free IPs in subnet-1'],
      ['Warning', 'LaunchFailed', 'Failed to launch NodeClaim: SubnetsExhausted: no free IPs in subnet-1'],
      ['Normal', 'Launched', expect.stringMatching(/^Launched instance fake:\/\/default-a1/)],
    ]);
  });

  it('records other errors as LaunchFailed with the message truncated to 300 characters', async () => {
    const { env, create } = await setup();
    env.cloudProvider.failNext('create', new Error(`boom ${'x'.repeat(500)}`));
    await create();
    await env.settle();
    const launched = condition(await claimOf(env), 'Launched');
    expect(launched?.reason).toBe('LaunchFailed');
    expect(launched?.message).toHaveLength(303);
    expect(launched?.message?.endsWith('...')).toBe(true);
    const failed = env.events.withReason(EventReasons.LaunchFailed);
    expect(failed.map((e) => [e.object.kind, e.type])).toEqual([['NodeClaim', 'Warning']]);
    expect(failed[0]?.message).toBe(`Failed to launch NodeClaim: ${launched?.message}`);
  });

  it('deletes a claim that does not launch within 5 minutes', async () => {
    const { env, create } = await setup();
    env.cloudProvider.failWhen('create', () => new CreateError('Throttled', 'slow down'));
    await create();
    await env.settle();
    await env.advance(4 * MIN);
    expect(await claimOf(env)).toBeDefined();
    await env.advance(2 * MIN);
    expect(await claimOf(env)).toBeUndefined();
    expect(await env.metric(MetricNames.NodeClaimsDisrupted, { reason: 'launch_timeout' })).toBe(1);
    expect(env.events.withReason(EventReasons.LivenessTimeout)).toHaveLength(1);
  });

  it('deletes a launched claim whose Node does not register within 15 minutes of creation, exactly then', async () => {
    const { env, create } = await setup();
    await create();
    await env.settle();
    await env.advance(15 * MIN - 1);
    expect(await claimOf(env)).toBeDefined();
    await env.advance(1);
    await env.advance(5_000);
    expect(await claimOf(env)).toBeUndefined();
    expect(env.cloudProvider.instances()).toEqual([]);
    expect(await env.metric(MetricNames.NodeClaimsDisrupted, { reason: 'registration_timeout' })).toBe(1);
  });

  it('deletes a registered claim whose Node never becomes Ready within 15 minutes of registering', async () => {
    const { env, create } = await setup();
    await create();
    await env.settle();
    await env.advance(3 * MIN);
    await env.cluster.create(Nodes, aNodeFor((await claimOf(env))!, {}, { ready: 'False' }));
    await env.settle();
    expect(condition(await claimOf(env), 'Registered')?.status).toBe('True');
    expect(condition(await claimOf(env), 'Initialized')?.status).not.toBe('True');
    await env.advance(15 * MIN - 1);
    expect((await claimOf(env))?.metadata.deletionTimestamp).toBeUndefined();
    await env.advance(1);
    expect((await claimOf(env))?.metadata.deletionTimestamp).toBeDefined();
    expect(await env.metric(MetricNames.NodeClaimsDisrupted, { reason: 'initialization_timeout' })).toBe(1);
    expect(env.events.withReason(EventReasons.LivenessTimeout)[0]?.message).toBe(
      'NodeClaim did not initialize within 15m of registering; deleting it',
    );
  });

  it('a crash after create and before the status write launches no second instance', async () => {
    const { env, create } = await setup();
    let rejected = 0;
    env.cluster.addAdmissionHook(
      (request) => {
        if (request.subresource === 'status' && rejected === 0) {
          rejected++;
          throw new InternalError('etcdserver: request timed out');
        }
      },
      [NodeClaims],
    );
    await create();
    await env.settle();
    await env.advance(1_000);
    expect(rejected).toBe(1);
    expect(env.cloudProvider.calls.create).toHaveLength(2);
    expect(env.cloudProvider.instances()).toHaveLength(1);
    expect((await claimOf(env))?.status?.providerID).toBe('fake://default-a1');
  });

  it('a claim deleted after a crash between create and the status write still has its instance terminated', async () => {
    const { env, create } = await setup();
    env.cluster.addAdmissionHook(
      (request) => {
        if (request.subresource === 'status') throw new InternalError('etcdserver: request timed out');
      },
      [NodeClaims],
    );
    await create();
    await env.settle();
    expect(env.cloudProvider.instances()).toHaveLength(1);
    await env.cluster.delete(NodeClaims, { name: 'default-a1' });
    await env.settle();
    await env.advance(5_000);
    expect(env.cloudProvider.instances()).toEqual([]);
    expect(await claimOf(env)).toBeUndefined();
  });

  it('on deletion terminates the instance, polling every 5 s until it is gone, then releases the claim', async () => {
    const env = new ControllerEnv({ cloudProvider: { terminationDelayMs: 12_000 } });
    await env.start(new NodeClaimLifecycleController(lifecycleDependencies(env)));
    const pool = await env.cluster.create(
      NodePools,
      aNodePool({ spec: { template: { spec: { terminationGracePeriod: '1h' } } } }),
    );
    await env.cluster.create(NodeClaims, aNodeClaimFor(pool, { metadata: { name: 'default-a1' } }));
    await env.settle();
    await env.cluster.delete(NodeClaims, { name: 'default-a1' });
    await env.settle();
    const deleting = await claimOf(env);
    expect(deleting?.metadata.annotations?.['karpenter.sh/nodeclaim-termination-timestamp']).toBe(
      '2026-03-02T10:00:00Z',
    );
    expect(condition(deleting, 'InstanceTerminating')?.status).toBe('True');
    expect(env.events.withReason(EventReasons.TerminationGracePeriodExpiring)).toHaveLength(1);
    await env.advance(10_000);
    expect(await claimOf(env)).toBeDefined();
    await env.advance(5_000);
    expect(await claimOf(env)).toBeUndefined();
    // Polled while shutting down, and once more to see it gone.
    expect(env.cloudProvider.calls.delete.length).toBeGreaterThanOrEqual(4);
    expect(
      await env.metric(MetricNames.NodeClaimsTerminated, { nodepool: 'default', capacity_type: 'spot' }),
    ).toBe(1);
  });

  it('ignores NodeClaims of NodeClasses the provider does not manage', async () => {
    const { env } = await setup();
    const pool = await env.cluster.get(NodePools, { name: 'default' });
    await env.cluster.create(
      NodeClaims,
      aNodeClaimFor(pool, {
        metadata: { name: 'foreign' },
        spec: { nodeClassRef: { group: 'other.io', kind: 'Other', name: 'x' } },
      }),
    );
    await env.settle();
    const foreign = await claimOf(env, 'foreign');
    expect(foreign?.metadata.finalizers).toBeUndefined();
    expect(env.cloudProvider.calls.create).toHaveLength(0);
  });
});
