import { describe, expect, it } from 'vitest';
import { decideLease, releasedLease, sameRecord } from './decide.js';
import { microTime } from './lease.js';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const base = { identity: 'a', leaseDurationMs: 15_000, formatTime: microTime };

describe('decideLease', () => {
  it('creates the lease when there is none', () => {
    const d = decideLease({ ...base, current: undefined, observedAt: T0, now: T0 });
    expect(d).toEqual({
      action: 'create',
      spec: {
        holderIdentity: 'a',
        leaseDurationSeconds: 15,
        acquireTime: '2026-03-01T12:00:00.000000Z',
        renewTime: '2026-03-01T12:00:00.000000Z',
        leaseTransitions: 0,
      },
    });
  });

  it('renews its own lease, keeping acquireTime and transitions', () => {
    const current = {
      holderIdentity: 'a',
      leaseDurationSeconds: 15,
      acquireTime: microTime(T0),
      renewTime: microTime(T0),
      leaseTransitions: 3,
    };
    const d = decideLease({ ...base, current, observedAt: T0, now: T0 + 2_000 });
    expect(d.action).toBe('renew');
    expect(d.action === 'renew' && d.spec).toEqual({ ...current, renewTime: microTime(T0 + 2_000) });
  });

  it("waits while another holder's lease runs, measured from when it was observed", () => {
    const current = { holderIdentity: 'b', leaseDurationSeconds: 15, renewTime: microTime(T0 - 60_000) };
    // renewTime is a minute old (skewed clock), but we only saw this record at T0.
    const d = decideLease({ ...base, current, observedAt: T0, now: T0 + 14_999 });
    expect(d).toMatchObject({ action: 'wait', holder: 'b', expiresAt: T0 + 15_000 });
    expect(d.action === 'wait' && d.reason).toContain('lease held by b');
  });

  it('acquires an expired lease and counts a transition', () => {
    const current = { holderIdentity: 'b', leaseDurationSeconds: 15, leaseTransitions: 2 };
    const d = decideLease({ ...base, current, observedAt: T0, now: T0 + 15_000 });
    expect(d.action).toBe('acquire');
    expect(d.action === 'acquire' && d.previousHolder).toBe('b');
    expect(d.action === 'acquire' && d.spec.leaseTransitions).toBe(3);
    expect(d.action === 'acquire' && d.spec.holderIdentity).toBe('a');
  });

  it('acquires a released (holderless) lease at once', () => {
    const current = releasedLease({ holderIdentity: 'b', leaseTransitions: 1 }, T0, microTime);
    expect(current).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1, leaseTransitions: 1 });
    const d = decideLease({ ...base, current, observedAt: T0, now: T0 });
    expect(d.action).toBe('acquire');
    expect(d.action === 'acquire' && d.spec.leaseTransitions).toBe(2);
  });

  it("uses the holder's own lease duration for its expiry", () => {
    const current = { holderIdentity: 'b', leaseDurationSeconds: 40 };
    expect(decideLease({ ...base, current, observedAt: T0, now: T0 + 20_000 }).action).toBe('wait');
    expect(decideLease({ ...base, current, observedAt: T0, now: T0 + 40_000 }).action).toBe('acquire');
  });
});

describe('sameRecord', () => {
  it('compares every field of the record', () => {
    const a = { holderIdentity: 'a', renewTime: microTime(T0), leaseTransitions: 1 };
    expect(sameRecord(a, { ...a })).toBe(true);
    expect(sameRecord(a, { ...a, renewTime: microTime(T0 + 1) })).toBe(false);
    expect(sameRecord(a, undefined)).toBe(false);
    expect(sameRecord(undefined, undefined)).toBe(true);
  });
});

describe('microTime', () => {
  it('writes six fractional digits', () => {
    expect(microTime(T0 + 123)).toBe('2026-03-01T12:00:00.123000Z');
  });
});
