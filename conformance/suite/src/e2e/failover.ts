/** The leader-election durations the controller runs with (cli-flags.md fixes client-go's defaults). */
export interface LeaderElectionTiming {
  readonly leaseDurationMs: number;
  readonly retryPeriodMs: number;
}

/** The Lease fields a takeover is read from. */
export interface LeaseTimes {
  readonly holderIdentity?: string;
  /** MicroTime: the holder's clock when it last renewed. */
  readonly renewTime?: string;
  /** MicroTime: the holder's clock when it acquired the lease. */
  readonly acquireTime?: string;
}

/** A takeover as the Lease records it: the dead holder's last renewal and the standby's acquisition. */
export interface Takeover {
  readonly lastRenewMs: number;
  readonly acquiredMs: number;
}

/**
 * How long after the dead holder's last renewal a standby acquires the Lease, as client-go's
 * leader election (and core's LeaderElector) guarantees. A standby measures expiry from the
 * moment *it* first read the renewed record, not from renewTime (so clock skew cannot expire a
 * lease early). Its attempts start one retryPeriod after the previous one ended, and each reads
 * the Lease before it decides, so it sees the last renewal at most retryPeriod + two requests
 * later (the attempt under way, then its own read); it acquires at the first attempt at least
 * leaseDuration after that, at most retryPeriod + two requests later again. It can never
 * acquire sooner than leaseDuration after the renewal, since it cannot read the record before
 * the holder wrote it:
 *
 *   leaseDuration <= acquired - lastRenew <= leaseDuration + 2 x (retryPeriod + 2 x request)
 *
 * `requestAllowanceMs` is what one Lease request may take (the elector abandons an attempt
 * after renewDeadline / 2); the lower bound needs none.
 * Both sides of the difference are stamps the two controllers wrote with the same machine's
 * clock, so the lower bound is exact. Measured from the kill instead, the window is wider by
 * up to one retryPeriod: the holder may have renewed just before dying, or one period earlier.
 */
export function takeoverWindow(
  timing: LeaderElectionTiming,
  requestAllowanceMs: number,
): { earliestMs: number; latestMs: number } {
  return {
    earliestMs: timing.leaseDurationMs,
    latestMs: timing.leaseDurationMs + 2 * (timing.retryPeriodMs + 2 * requestAllowanceMs),
  };
}

/**
 * The takeover between two reads of one Lease: `before` held by the old holder (its last
 * renewal), `after` held by the new one (its acquisition). Undefined when the reads do not show
 * a change of holder or lack the times.
 */
export function takeoverOf(before: LeaseTimes, after: LeaseTimes): Takeover | undefined {
  if (!before.holderIdentity || !after.holderIdentity) return undefined;
  if (before.holderIdentity === after.holderIdentity) return undefined;
  const lastRenewMs = Date.parse(before.renewTime ?? '');
  const acquiredMs = Date.parse(after.acquireTime ?? '');
  if (!Number.isFinite(lastRenewMs) || !Number.isFinite(acquiredMs)) return undefined;
  return { lastRenewMs, acquiredMs };
}
