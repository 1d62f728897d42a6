import type { LeaseSpec } from './lease.js';

/** What one attempt of a candidate decided to do with the lease. */
export type LeaseDecision =
  | { readonly action: 'create'; readonly spec: LeaseSpec }
  | { readonly action: 'acquire'; readonly spec: LeaseSpec; readonly previousHolder: string }
  | { readonly action: 'renew'; readonly spec: LeaseSpec }
  | {
      readonly action: 'wait';
      readonly holder: string;
      /** When the lease expires unless its holder renews (local time, ms). */
      readonly expiresAt: number;
      readonly reason: string;
    };

/** The input of one decision. */
export interface LeaseDecisionInput {
  /** The lease's spec as read now; undefined when no Lease exists. */
  readonly current: LeaseSpec | undefined;
  /**
   * When this candidate first saw the current record (its own clock). As client-go does,
   * expiry is measured from this local observation, not from `renewTime`, so clock skew
   * between replicas cannot make a lease look expired early.
   */
  readonly observedAt: number;
  readonly now: number;
  readonly identity: string;
  readonly leaseDurationMs: number;
  /** Formats a time for the spec (MicroTime). */
  readonly formatTime: (ms: number) => string;
}

/**
 * client-go's tryAcquireOrRenew as a pure function: no lease -> create it; held by us -> renew
 * (keeping acquireTime and transitions); free (no holder, e.g. released) or expired -> acquire,
 * counting one more transition; otherwise wait.
 */
export function decideLease(input: LeaseDecisionInput): LeaseDecision {
  const { current, now, identity, formatTime } = input;
  const durationSeconds = Math.ceil(input.leaseDurationMs / 1000);
  const stamp = formatTime(now);
  if (current === undefined) {
    return {
      action: 'create',
      spec: {
        holderIdentity: identity,
        leaseDurationSeconds: durationSeconds,
        acquireTime: stamp,
        renewTime: stamp,
        leaseTransitions: 0,
      },
    };
  }
  const holder = current.holderIdentity ?? '';
  const transitions = current.leaseTransitions ?? 0;
  if (holder === identity) {
    return {
      action: 'renew',
      spec: {
        holderIdentity: identity,
        leaseDurationSeconds: durationSeconds,
        acquireTime: current.acquireTime ?? stamp,
        renewTime: stamp,
        leaseTransitions: transitions,
      },
    };
  }
  // The holder's own duration decides its expiry; a released lease says 1 s.
  const heldForMs = (current.leaseDurationSeconds ?? durationSeconds) * 1000;
  const expiresAt = input.observedAt + heldForMs;
  if (holder !== '' && now < expiresAt) {
    return {
      action: 'wait',
      holder,
      expiresAt,
      reason: `lease held by ${holder} until at least ${new Date(expiresAt).toISOString()}`,
    };
  }
  return {
    action: 'acquire',
    previousHolder: holder,
    spec: {
      holderIdentity: identity,
      leaseDurationSeconds: durationSeconds,
      acquireTime: stamp,
      renewTime: stamp,
      leaseTransitions: transitions + 1,
    },
  };
}

/** The spec a holder writes when it gives the lease up: no holder, expiring in 1 s. */
export function releasedLease(
  current: LeaseSpec,
  now: number,
  formatTime: (ms: number) => string,
): LeaseSpec {
  return {
    holderIdentity: '',
    leaseDurationSeconds: 1,
    acquireTime: formatTime(now),
    renewTime: formatTime(now),
    leaseTransitions: current.leaseTransitions ?? 0,
  };
}

/** Whether two reads of a lease are the same record (client-go compares the whole record). */
export function sameRecord(a: LeaseSpec | undefined, b: LeaseSpec | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    (a.holderIdentity ?? '') === (b.holderIdentity ?? '') &&
    a.leaseDurationSeconds === b.leaseDurationSeconds &&
    a.acquireTime === b.acquireTime &&
    a.renewTime === b.renewTime &&
    (a.leaseTransitions ?? 0) === (b.leaseTransitions ?? 0)
  );
}
