import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { ForbiddenError } from '../../kube/errors.js';
import { MemoryCluster } from '../../kube/memory/memory-cluster.js';
import type { ClusterPort } from '../../kube/port.js';
import { type Lease, Leases, microTime } from '../leader-election/lease.js';
import {
  activeKarpenter,
  checkKarpenter,
  KarpenterLeaseDefault,
  karpenterRefusal,
} from './karpenter-guard.js';

const T0 = Date.parse('2026-12-04T12:00:00Z');

function lease(spec: Lease['spec']): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'karpenter-leader-election', namespace: 'kube-system' },
    ...(spec === undefined ? {} : { spec }),
  };
}

describe('activeKarpenter', () => {
  it('is a holder that renewed within the lease duration', () => {
    const live = lease({
      holderIdentity: 'karpenter-abc',
      leaseDurationSeconds: 15,
      renewTime: microTime(T0 - 4_000),
    });
    expect(activeKarpenter(live, T0)).toEqual({
      holder: 'karpenter-abc',
      renewedAgoMs: 4_000,
      leaseDurationSeconds: 15,
    });
  });

  it('is nobody once the lease expired, when released, or without a renew time', () => {
    const expired = lease({
      holderIdentity: 'karpenter-abc',
      leaseDurationSeconds: 15,
      renewTime: microTime(T0 - 16_000),
    });
    expect(activeKarpenter(expired, T0)).toBeUndefined();
    expect(activeKarpenter(lease({ holderIdentity: '', renewTime: microTime(T0) }), T0)).toBeUndefined();
    expect(activeKarpenter(lease({ holderIdentity: 'k' }), T0)).toBeUndefined();
    expect(activeKarpenter(undefined, T0)).toBeUndefined();
  });

  it('falls back to the acquire time and a 15 s duration', () => {
    const acquired = lease({ holderIdentity: 'k', acquireTime: microTime(T0 - 10_000) });
    expect(activeKarpenter(acquired, T0)?.leaseDurationSeconds).toBe(15);
    expect(activeKarpenter(acquired, T0 + 6_000)).toBeUndefined();
  });
});

describe('checkKarpenter', () => {
  async function clusterWith(spec?: Lease['spec']) {
    const cluster = new MemoryCluster({ clock: new FakeClock(T0) });
    if (spec !== undefined) await cluster.create(Leases, lease(spec));
    return cluster;
  }

  it('finds a live Karpenter and names it in the refusal', async () => {
    const cluster = await clusterWith({
      holderIdentity: 'karpenter-7d9',
      leaseDurationSeconds: 15,
      renewTime: microTime(T0 - 2_000),
    });
    const check = await checkKarpenter(cluster, KarpenterLeaseDefault, T0);
    expect(check.state).toBe('active');
    if (check.state !== 'active') return;
    expect(karpenterRefusal(KarpenterLeaseDefault, check.karpenter)).toMatch(
      /^an active Karpenter controller holds Lease kube-system\/karpenter-leader-election \(holder karpenter-7d9, renewed 2 s ago\).*--run-beside-karpenter=true/,
    );
  });

  it('is absent without the Lease or with an expired one', async () => {
    expect(await checkKarpenter(await clusterWith(), KarpenterLeaseDefault, T0)).toEqual({ state: 'absent' });
    const stale = await clusterWith({
      holderIdentity: 'k',
      leaseDurationSeconds: 15,
      renewTime: microTime(T0 - 60_000),
    });
    expect(await checkKarpenter(stale, KarpenterLeaseDefault, T0)).toEqual({ state: 'absent' });
  });

  it('is unknown, not absent, when the Lease may not be read', async () => {
    const forbidden = {
      get: () => Promise.reject(new ForbiddenError('leases is forbidden')),
    } as unknown as ClusterPort;
    const check = await checkKarpenter(forbidden, KarpenterLeaseDefault, T0);
    expect(check).toEqual({
      state: 'unknown',
      reason: 'may not read Lease kube-system/karpenter-leader-election: leases is forbidden',
    });
  });
});
