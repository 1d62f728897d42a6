import { describe, expect, it } from 'vitest';
import {
  isMirrorPod,
  isOwnedByDaemonSet,
  isPodActive,
  isPodReady,
  isPodTerminal,
  isPodTerminating,
  isReschedulable,
} from './pod.js';

const pod = (
  o: { phase?: string; deleting?: boolean; owner?: string; nodeName?: string; ready?: boolean } = {},
) => ({
  metadata: {
    name: 'p',
    ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    ...(o.owner === undefined ? {} : { ownerReferences: [{ kind: o.owner, name: 'x' }] }),
  },
  spec: o.nodeName === undefined ? {} : { nodeName: o.nodeName },
  status: {
    ...(o.phase === undefined ? {} : { phase: o.phase }),
    ...(o.ready === undefined ? {} : { conditions: [{ type: 'Ready', status: o.ready ? 'True' : 'False' }] }),
  },
});

describe('pod predicates', () => {
  it('terminal is Succeeded or Failed only', () => {
    expect(isPodTerminal(pod({ phase: 'Succeeded' }))).toBe(true);
    expect(isPodTerminal(pod({ phase: 'Failed' }))).toBe(true);
    expect(isPodTerminal(pod({ phase: 'Running' }))).toBe(false);
    expect(isPodTerminal(pod())).toBe(false);
  });

  it('active is neither terminal nor terminating', () => {
    expect(isPodActive(pod({ phase: 'Running' }))).toBe(true);
    expect(isPodActive(pod({ phase: 'Running', deleting: true }))).toBe(false);
    expect(isPodTerminating(pod({ deleting: true }))).toBe(true);
    expect(isPodActive(pod({ phase: 'Failed' }))).toBe(false);
  });

  it('ready reads the Ready condition', () => {
    expect(isPodReady(pod({ ready: true }))).toBe(true);
    expect(isPodReady(pod({ ready: false }))).toBe(false);
    expect(isPodReady(pod())).toBe(false);
  });

  it('owners: DaemonSet and mirror (Node-owned) pods', () => {
    expect(isOwnedByDaemonSet(pod({ owner: 'DaemonSet' }))).toBe(true);
    expect(isOwnedByDaemonSet(pod({ owner: 'ReplicaSet' }))).toBe(false);
    expect(isMirrorPod(pod({ owner: 'Node' }))).toBe(true);
    expect(isMirrorPod(pod())).toBe(false);
  });

  it('reschedulable: bound, active or a terminating StatefulSet pod, not a daemon or mirror pod', () => {
    expect(isReschedulable(pod({ nodeName: 'n', phase: 'Running' }))).toBe(true);
    expect(isReschedulable(pod({ phase: 'Running' }))).toBe(false);
    expect(isReschedulable(pod({ nodeName: 'n', phase: 'Succeeded' }))).toBe(false);
    expect(isReschedulable(pod({ nodeName: 'n', deleting: true }))).toBe(false);
    expect(isReschedulable(pod({ nodeName: 'n', deleting: true, owner: 'StatefulSet' }))).toBe(true);
    expect(isReschedulable(pod({ nodeName: 'n', owner: 'DaemonSet' }))).toBe(false);
    expect(isReschedulable(pod({ nodeName: 'n', owner: 'Node' }))).toBe(false);
  });
});
