import { describe, expect, it } from 'vitest';
import type { Condition } from '../../apis/common/condition.js';
import { aNodeClaimFor } from '../../testing/nodeclaim-builder.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import {
  CloudProviderDriftedReason,
  cloudProviderVerdict,
  conditionsAfter,
  driftBeforeCloudProvider,
} from './drift-verdict.js';
import { driftBasis } from './static-drift.js';

const T0 = Date.parse('2026-03-02T09:00:00Z');
const launched: Condition = {
  type: 'Launched',
  status: 'True',
  reason: 'Launched',
  message: '',
  lastTransitionTime: '2026-03-02T08:00:00Z',
};
const pool = aNodePool();
const claim = aNodeClaimFor(pool, { status: { conditions: [launched] } });

describe('driftBeforeCloudProvider', () => {
  it('does not check claims that are not Launched, lack a NodePool label, or whose NodePool is unusable', () => {
    const edited = aNodePool({ spec: { template: { metadata: { labels: { x: 'y' } } } } });
    const pending = aNodeClaimFor(pool);
    expect(
      driftBeforeCloudProvider({ claim: pending, nodeLabels: undefined, pool: { nodePool: edited } }),
    ).toEqual({
      drifted: false,
      why: 'NodeClaim is not launched yet',
    });
    const orphan = { ...claim, metadata: { ...claim.metadata, labels: {} } };
    expect(
      driftBeforeCloudProvider({ claim: orphan, nodeLabels: undefined, pool: { nodePool: edited } }),
    ).toEqual({
      drifted: false,
      why: 'NodeClaim has no karpenter.sh/nodepool label',
    });
    expect(
      driftBeforeCloudProvider({
        claim,
        nodeLabels: undefined,
        pool: { problem: 'NodePool default does not exist' },
      }),
    ).toEqual({ drifted: false, why: 'NodePool default does not exist' });
  });

  it('decides static drift itself and asks the cloud provider only otherwise', () => {
    const edited = aNodePool({ spec: { template: { metadata: { labels: { x: 'y' } } } } });
    expect(
      driftBeforeCloudProvider({ claim, nodeLabels: undefined, pool: { nodePool: edited } }),
    ).toMatchObject({
      drifted: true,
      reason: 'NodePoolDrifted',
    });
    expect(driftBeforeCloudProvider({ claim, nodeLabels: undefined, pool: { nodePool: pool } })).toBe(
      'ask-cloud-provider',
    );
  });

  it("compares with the lookup's drift basis when it carries one, the pool's own otherwise", () => {
    const edited = aNodePool({ spec: { template: { metadata: { labels: { x: 'y' } } } } });
    // A basis derived from the edited pool, handed with the unedited one: the basis decides.
    expect(
      driftBeforeCloudProvider({
        claim,
        nodeLabels: undefined,
        pool: { nodePool: pool, basis: driftBasis(edited) },
      }),
    ).toMatchObject({ drifted: true, reason: 'NodePoolDrifted' });
    expect(
      driftBeforeCloudProvider({
        claim,
        nodeLabels: undefined,
        pool: { nodePool: edited, basis: driftBasis(pool) },
      }),
    ).toBe('ask-cloud-provider');
  });

  it("reads requirements drift from the Node's labels over the claim's", () => {
    const arm = aNodePool({
      spec: {
        template: {
          spec: { requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }] },
        },
      },
    });
    const armClaim = aNodeClaimFor(arm, {
      metadata: { labels: { 'kubernetes.io/arch': 'arm64' } },
      status: { conditions: [launched] },
    });
    const input = { claim: armClaim, pool: { nodePool: arm } };
    expect(driftBeforeCloudProvider({ ...input, nodeLabels: undefined })).toBe('ask-cloud-provider');
    expect(
      driftBeforeCloudProvider({ ...input, nodeLabels: { 'kubernetes.io/arch': 'amd64' } }),
    ).toMatchObject({
      drifted: true,
      reason: 'RequirementsDrifted',
    });
  });
});

describe('cloudProviderVerdict', () => {
  it("uses the provider's reason, or a generic one when it is not a valid condition reason", () => {
    expect(cloudProviderVerdict('aws', 'AMIDrift')).toEqual({
      drifted: true,
      reason: 'AMIDrift',
      message: 'cloud provider aws reports drift: AMIDrift',
    });
    expect(cloudProviderVerdict('x', 'image changed!')).toEqual({
      drifted: true,
      reason: CloudProviderDriftedReason,
      message: 'cloud provider x reports drift: image changed!',
    });
    expect(cloudProviderVerdict('aws', undefined)).toEqual({
      drifted: false,
      why: 'neither the NodePool nor cloud provider aws reports drift',
    });
    expect(cloudProviderVerdict('aws', '').drifted).toBe(false);
  });
});

describe('conditionsAfter', () => {
  const drifted = {
    drifted: true,
    reason: 'AMIDrift',
    message: 'cloud provider aws reports drift: AMIDrift',
  } as const;
  const clean = { drifted: false, why: 'no drift' } as const;

  it('sets Drifted=True, then changes nothing while the verdict holds (idempotent)', () => {
    const first = conditionsAfter([launched], drifted, T0);
    expect(first?.find((c) => c.type === 'Drifted')).toEqual({
      type: 'Drifted',
      status: 'True',
      reason: 'AMIDrift',
      message: 'cloud provider aws reports drift: AMIDrift',
      lastTransitionTime: '2026-03-02T09:00:00Z',
    });
    expect(conditionsAfter(first, drifted, T0 + 60_000)).toBeUndefined();
  });

  it('keeps the transition time when only the reason changes', () => {
    const first = conditionsAfter([launched], drifted, T0);
    const next = conditionsAfter(
      first,
      { drifted: true, reason: 'NodePoolDrifted', message: 'template changed' },
      T0 + 60_000,
    );
    expect(next?.find((c) => c.type === 'Drifted')).toMatchObject({
      reason: 'NodePoolDrifted',
      lastTransitionTime: '2026-03-02T09:00:00Z',
    });
  });

  it('removes the condition when no longer drifted, and changes nothing when it is absent', () => {
    const first = conditionsAfter([launched], drifted, T0);
    expect(conditionsAfter(first, clean, T0)).toEqual([launched]);
    expect(conditionsAfter([launched], clean, T0)).toBeUndefined();
    const stale: Condition = { ...launched, type: 'Drifted', status: 'False' };
    expect(conditionsAfter([launched, stale], clean, T0)).toEqual([launched]);
  });
});
