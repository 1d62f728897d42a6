import { describe, expect, it } from 'vitest';
import { Finalizers, Labels, Taints } from '../../apis/labels.js';
import {
  CreateError,
  InsufficientCapacityError,
  NodeClassNotReadyError,
} from '../../cloudprovider/errors.js';
import { rootCondition, setCondition } from '../../lifecycle/conditions.js';
import { aNode } from '../../testing/node-builder.js';
import { aNodeClaim } from '../../testing/nodeclaim-builder.js';
import { initializationProblem } from './initialization.js';
import { classifyLaunchError, hydrateNodeClaim, truncateMessage } from './launch.js';
import { livenessVerdict } from './liveness.js';
import { registerNode } from './registration.js';

const T0 = Date.parse('2026-03-02T09:00:00Z');
const MIN = 60_000;

describe('launch decisions', () => {
  it('maps provider errors as upstream does', () => {
    expect(classifyLaunchError(new InsufficientCapacityError('ice'))).toMatchObject({
      kind: 'delete',
      disruptionReason: 'insufficient_capacity',
    });
    expect(classifyLaunchError(new NodeClassNotReadyError('nc'))).toMatchObject({
      kind: 'delete',
      disruptionReason: 'nodeclass_not_ready',
    });
    expect(classifyLaunchError(new CreateError('QuotaExceeded', 'quota'))).toEqual({
      kind: 'retry',
      condition: { type: 'Launched', status: 'Unknown', reason: 'QuotaExceeded', message: 'quota' },
    });
    expect(classifyLaunchError(new Error('boom'))).toMatchObject({
      kind: 'retry',
      condition: { reason: 'LaunchFailed', message: 'boom' },
    });
    expect(truncateMessage('x'.repeat(300))).toHaveLength(300);
    expect(truncateMessage('x'.repeat(301))).toBe(`${'x'.repeat(300)}...`);
  });

  it('hydrates with provider labels under requirement labels under the claim labels', () => {
    const claim = aNodeClaim({
      metadata: { labels: { [Labels.NodePool]: 'default', team: 'mine' } },
      spec: { requirements: [{ key: Labels.Zone, operator: 'In', values: ['zone-b'] }] },
    });
    const created = aNodeClaim({
      metadata: {
        labels: { [Labels.Zone]: 'zone-x', team: 'theirs', [Labels.InstanceType]: 'big' },
        annotations: { id: 'i-1' },
      },
      status: { providerID: 'p://1', imageID: 'img', capacity: { cpu: '4' }, allocatable: { cpu: '3' } },
    });
    const out = hydrateNodeClaim(claim, created);
    expect(out.metadata.labels).toEqual({
      [Labels.Zone]: 'zone-b',
      team: 'mine',
      [Labels.InstanceType]: 'big',
      [Labels.NodePool]: 'default',
    });
    expect(out.metadata.annotations).toEqual({ id: 'i-1' });
    expect(out.status).toEqual({
      providerID: 'p://1',
      imageID: 'img',
      capacity: { cpu: '4' },
      allocatable: { cpu: '3' },
    });
    expect(claim.status).toBeUndefined();
  });
});

describe('liveness', () => {
  const claim = (launched: boolean, registered = false, initialized = false) =>
    aNodeClaim({
      metadata: { creationTimestamp: '2026-03-02T09:00:00Z' },
      status: {
        conditions: [
          {
            type: 'Launched',
            status: launched ? 'True' : 'Unknown',
            reason: 'R',
            message: '',
            lastTransitionTime: '2026-03-02T09:00:00Z',
          },
          {
            type: 'Registered',
            status: registered ? 'True' : 'Unknown',
            reason: 'R',
            message: '',
            lastTransitionTime: '2026-03-02T09:00:00Z',
          },
          {
            type: 'Initialized',
            status: initialized ? 'True' : 'Unknown',
            reason: 'R',
            message: '',
            lastTransitionTime: '2026-03-02T09:00:00Z',
          },
        ],
      },
    });

  it('times out launches after 5 minutes and registrations after 15, from creation', () => {
    expect(livenessVerdict(claim(false), T0 + 4 * MIN)).toEqual({ kind: 'alive', recheckInMs: MIN });
    expect(livenessVerdict(claim(false), T0 + 5 * MIN)).toMatchObject({
      kind: 'timedOut',
      reason: 'launch_timeout',
    });
    expect(livenessVerdict(claim(true), T0 + 5 * MIN)).toEqual({ kind: 'alive', recheckInMs: 10 * MIN });
    expect(livenessVerdict(claim(true), T0 + 15 * MIN)).toMatchObject({
      kind: 'timedOut',
      reason: 'registration_timeout',
    });
    expect(livenessVerdict(claim(true, true, true), T0 + 60 * MIN)).toEqual({ kind: 'alive' });
  });

  it('times out a registered claim that does not initialize within 15 minutes of registering', () => {
    expect(livenessVerdict(claim(true, true), T0 + 14 * MIN)).toEqual({ kind: 'alive', recheckInMs: MIN });
    expect(livenessVerdict(claim(true, true), T0 + 15 * MIN)).toEqual({
      kind: 'timedOut',
      reason: 'initialization_timeout',
      timeoutMs: 15 * MIN,
    });
  });
});

describe('registration', () => {
  it('syncs labels, annotations, taints, finalizer and owner, and drops the unregistered taint', () => {
    const claim = aNodeClaim({
      metadata: { name: 'c1', uid: 'uid-1', labels: { team: 'a' }, annotations: { note: 'x' } },
      spec: {
        taints: [{ key: 'dedicated', effect: 'NoSchedule' }],
        startupTaints: [{ key: 'init', effect: 'NoExecute' }],
      },
    });
    const node = aNode({
      metadata: { labels: { own: 'label' } },
      spec: {
        taints: [{ ...Taints.Unregistered }, { key: 'dedicated', effect: 'NoSchedule', value: 'kept' }],
      },
    });
    const out = registerNode(node, claim);
    expect(out.labels).toMatchObject({ own: 'label', team: 'a', [Labels.Registered]: 'true' });
    expect(out.annotations).toEqual({ note: 'x' });
    expect(out.finalizers).toEqual([Finalizers.Termination]);
    expect(out.ownerReferences).toEqual([
      {
        apiVersion: 'karpenter.sh/v1',
        kind: 'NodeClaim',
        name: 'c1',
        uid: 'uid-1',
        blockOwnerDeletion: true,
      },
    ]);
    expect(out.taints).toEqual([
      { key: 'dedicated', effect: 'NoSchedule', value: 'kept' },
      { key: 'init', effect: 'NoExecute' },
    ]);
    expect(out.unregisteredTaintMissing).toBe(false);
    const again = registerNode(
      {
        ...node,
        metadata: { ...node.metadata, finalizers: out.finalizers, ownerReferences: out.ownerReferences },
      },
      claim,
    );
    expect(again.finalizers).toEqual([Finalizers.Termination]);
    expect(again.ownerReferences).toHaveLength(1);
  });
});

describe('initialization', () => {
  const claim = aNodeClaim({
    spec: {
      startupTaints: [{ key: 'init', effect: 'NoSchedule' }],
      resources: { requests: { cpu: '1', 'example.com/fpga': '1' } },
    },
  });
  const node = (extra: Parameters<typeof aNode>[0]) =>
    aNode({ status: { allocatable: { cpu: '4', 'example.com/fpga': '1' } }, ...extra });

  it('needs Ready, no startup or ephemeral taints, and every requested resource registered', () => {
    expect(initializationProblem(node({}), claim)).toBeUndefined();
    expect(
      initializationProblem(
        node({
          status: {
            conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-03-02T09:00:00Z' }],
          },
        }),
        claim,
      )?.reason,
    ).toBe('NodeNotReady');
    expect(
      initializationProblem(node({ spec: { taints: [{ key: 'init', effect: 'NoSchedule' }] } }), claim)
        ?.message,
    ).toBe('StartupTaint "init:NoSchedule" still exists');
    expect(
      initializationProblem(
        node({ spec: { taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] } }),
        claim,
      )?.reason,
    ).toBe('KnownEphemeralTaintsExist');
    expect(
      initializationProblem(aNode({ status: { allocatable: { cpu: '4', 'example.com/fpga': '0' } } }), claim)
        ?.reason,
    ).toBe('ResourceNotRegistered');
  });
});

describe('conditions', () => {
  it('keeps the transition time while the status holds and computes root conditions', () => {
    const a = setCondition(undefined, { type: 'Launched', status: 'Unknown', reason: 'X' }, T0);
    const b = setCondition(a, { type: 'Launched', status: 'Unknown', reason: 'Y', message: 'm' }, T0 + MIN);
    expect(b[0]).toMatchObject({ reason: 'Y', message: 'm', lastTransitionTime: '2026-03-02T09:00:00Z' });
    const c = setCondition(b, { type: 'Launched', status: 'True' }, T0 + 2 * MIN);
    expect(c[0]).toMatchObject({ reason: 'Launched', lastTransitionTime: '2026-03-02T09:02:00Z' });
    expect(rootCondition('Ready', c, ['Launched'])).toEqual({ type: 'Ready', status: 'True' });
    expect(rootCondition('Ready', c, ['Launched', 'Registered'])).toMatchObject({
      status: 'Unknown',
      message: 'Registered=Unknown',
    });
    const failed = setCondition(c, { type: 'Registered', status: 'False', reason: 'Z' }, T0);
    expect(rootCondition('Ready', failed, ['Launched', 'Registered']).status).toBe('False');
  });
});
