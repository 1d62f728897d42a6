import type { Clock } from '@nodewright/core/clock';
import { LatencyFaults } from '../../latency/latency-faults.js';

/** Which AWS API a call went to. */
export type AwsService = 'ec2' | 'pricing' | 'sqs' | 'iam' | 'ssm';

/** A failure the mock answers with instead of doing the call. */
export interface InjectedFailure {
  readonly kind: 'throttle' | 'internal' | 'unavailable';
}

/** Which calls a fault applies to: a service, optionally one action of it. */
export interface FaultScope {
  readonly service: AwsService;
  readonly action?: string;
}

/** One capacity pool: capacity type x instance type x zone. */
export interface CapacityPool {
  readonly capacityType: 'spot' | 'on-demand';
  readonly instanceType: string;
  readonly zone: string;
}

interface CountedFault {
  readonly scope: FaultScope;
  readonly kind: InjectedFailure['kind'];
  remaining: number;
}

interface ThrottleShare {
  readonly scope: FaultScope;
  readonly share: number;
  readonly untilMs: number;
  seen: number;
  throttled: number;
}

interface RateLimit {
  readonly scope: FaultScope;
  readonly perSecond: number;
  windowStart: number;
  used: number;
}

/**
 * Faults a test switches on, and counters of every call. Capacity faults are read by CreateFleet;
 * the others are checked by the server before any action runs. Everything is per instance (no
 * module state), reset by `reset()`.
 */
export class AwsFaults {
  readonly #clock: Clock;
  readonly #counted: CountedFault[] = [];
  readonly #rates: RateLimit[] = [];
  readonly #shares: ThrottleShare[] = [];
  readonly #latency = new LatencyFaults();
  readonly #capacity = new Map<string, number>();
  readonly #calls = new Map<string, number>();
  readonly #lostResponses = new Map<string, number>();
  #describeLagMs = 0;

  constructor(deps: { readonly clock: Clock }) {
    this.#clock = deps.clock;
  }

  /**
   * Makes a pool return InsufficientInstanceCapacity once `remaining` more instances were
   * launched from it (0: at once). Partial fulfilment comes from a remaining above 0.
   */
  insufficientCapacity(pool: CapacityPool, remaining = 0): void {
    this.#capacity.set(poolKey(pool), remaining);
  }

  /** Gives a pool unlimited capacity again. */
  restoreCapacity(pool: CapacityPool): void {
    this.#capacity.delete(poolKey(pool));
  }

  /** Instances a pool can still launch; undefined = unlimited. */
  capacityLeft(pool: CapacityPool): number | undefined {
    return this.#capacity.get(poolKey(pool));
  }

  /** Records launches from a limited pool. */
  consumeCapacity(pool: CapacityPool, count: number): void {
    const left = this.#capacity.get(poolKey(pool));
    if (left !== undefined) this.#capacity.set(poolKey(pool), Math.max(0, left - count));
  }

  /** The next `count` calls in scope are throttled (RequestLimitExceeded / ThrottlingException). */
  throttleNext(scope: FaultScope, count: number): void {
    this.#counted.push({ scope, kind: 'throttle', remaining: count });
  }

  /** Calls in scope beyond `perSecond` within one second of the clock are throttled. */
  throttleRate(scope: FaultScope, perSecond: number): void {
    this.#rates.push({ scope, perSecond, windowStart: this.#clock.now(), used: 0 });
  }

  /**
   * Until `untilMs` on the clock, `share` (0..1) of the calls in scope are throttled, spread
   * evenly (at 0.5, every other call, the first included): an API under a sustained rate-limit
   * storm, with an outcome that does not hang on random draws.
   */
  throttleShare(scope: FaultScope, share: number, untilMs: number): void {
    this.#shares.push({ scope, share, untilMs, seen: 0, throttled: 0 });
  }

  /** How many calls the throttleShare faults answered with a throttle, and how many they saw. */
  sharedThrottles(): { readonly seen: number; readonly throttled: number } {
    return {
      seen: this.#shares.reduce((n, s) => n + s.seen, 0),
      throttled: this.#shares.reduce((n, s) => n + s.throttled, 0),
    };
  }

  /** The next `count` calls in scope fail with a 5xx (InternalError 500 or ServiceUnavailable 503). */
  failNext(scope: FaultScope, count: number, kind: 'internal' | 'unavailable' = 'internal'): void {
    this.#counted.push({ scope, kind, remaining: count });
  }

  /** Every call to `action` waits `ms` before it is answered. */
  latency(action: string, ms: number): void {
    this.#latency.always(action, ms);
  }

  /** The next `count` calls to `action` wait `ms` before they are answered; later ones do not. */
  latencyNext(action: string, ms: number, count: number): void {
    this.#latency.next(action, ms, count);
  }

  /** The wait of this call to `action` (latency, or latencyNext, which it counts off). */
  latencyOf(action: string): number {
    return this.#latency.of(action);
  }

  /**
   * EC2's eventual consistency, stretched: DescribeInstances leaves out instances launched less
   * than `ms` ago, and asking for one by id is InvalidInstanceID.NotFound, as EC2 answers right
   * after a launch. 0 turns it off.
   */
  describeLag(ms: number): void {
    this.#describeLagMs = ms;
  }

  /** The DescribeInstances lag in force (describeLag). */
  describeLagMs(): number {
    return this.#describeLagMs;
  }

  /**
   * The next `count` calls to `action` are carried out, then the connection is dropped before
   * the response is written: the caller cannot tell whether the call happened (a CreateFleet
   * that launched, its answer lost).
   */
  loseResponses(action: string, count: number): void {
    this.#lostResponses.set(action, (this.#lostResponses.get(action) ?? 0) + count);
  }

  /** Whether this call's response is to be lost (loseResponses); counts it off. */
  takeLostResponse(action: string): boolean {
    const left = this.#lostResponses.get(action) ?? 0;
    if (left <= 0) return false;
    this.#lostResponses.set(action, left - 1);
    return true;
  }

  /** Counts a call and says whether a fault answers it instead. */
  admit(service: AwsService, action: string): InjectedFailure | undefined {
    this.#calls.set(action, (this.#calls.get(action) ?? 0) + 1);
    const counted = this.#counted.find((f) => f.remaining > 0 && inScope(f.scope, service, action));
    if (counted) {
      counted.remaining--;
      return { kind: counted.kind };
    }
    const now = this.#clock.now();
    for (const share of this.#shares) {
      if (now >= share.untilMs || !inScope(share.scope, service, action)) continue;
      share.seen++;
      // Throttled when the running total of `share` crosses an integer: evenly spread.
      if (Math.ceil(share.seen * share.share) > Math.ceil((share.seen - 1) * share.share)) {
        share.throttled++;
        return { kind: 'throttle' };
      }
    }
    for (const rate of this.#rates) {
      if (!inScope(rate.scope, service, action)) continue;
      if (now - rate.windowStart >= 1000) {
        rate.windowStart = now;
        rate.used = 0;
      }
      rate.used++;
      if (rate.used > rate.perSecond) return { kind: 'throttle' };
    }
    return undefined;
  }

  /** How many times `action` was called (answered or failed). */
  calls(action: string): number {
    return this.#calls.get(action) ?? 0;
  }

  /** Every action's call count. */
  callCounts(): Readonly<Record<string, number>> {
    return Object.fromEntries(this.#calls);
  }

  /** Clears faults and counters. */
  reset(): void {
    this.#counted.length = 0;
    this.#rates.length = 0;
    this.#shares.length = 0;
    this.#latency.clear();
    this.#capacity.clear();
    this.#calls.clear();
    this.#lostResponses.clear();
    this.#describeLagMs = 0;
  }
}

/** `spot:m5.large:us-east-1a`, the key Karpenter's unavailable-offerings cache uses too. */
export function poolKey(pool: CapacityPool): string {
  return `${pool.capacityType}:${pool.instanceType}:${pool.zone}`;
}

function inScope(scope: FaultScope, service: AwsService, action: string): boolean {
  return scope.service === service && (scope.action === undefined || scope.action === action);
}
