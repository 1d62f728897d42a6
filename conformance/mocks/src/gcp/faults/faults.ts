import type { Clock } from '@nodewright/core/clock';
import { LatencyFaults } from '../../latency/latency-faults.js';

/** Spot or standard, as GCE's `scheduling.provisioningModel` names them. */
export type ProvisioningModel = 'SPOT' | 'STANDARD';

/** One capacity pool: machine type x zone x provisioning model. */
export interface GcePool {
  readonly machineType: string;
  readonly zone: string;
  readonly provisioningModel: ProvisioningModel;
}

/** A failure the server answers with before a call runs. */
export type InjectedFailure = 'rateLimit' | 'tooManyRequests' | 'backendError' | 'unavailable';

interface CountedFault {
  readonly method: string | undefined;
  readonly kind: InjectedFailure;
  remaining: number;
}

const poolKey = (p: GcePool) => `${p.provisioningModel}/${p.zone}/${p.machineType}`;

/**
 * Faults a test switches on, and counters of every call. Stockouts and quota are read by the
 * insert paths (they surface in the operation, as GCE reports them); the others are checked
 * by the server before any method runs. All state is per instance; `reset()` clears it.
 */
export class GceFaults {
  readonly #clock: Clock;
  readonly #stockouts = new Map<string, number>();
  readonly #counted: CountedFault[] = [];
  readonly #latency = new LatencyFaults();
  readonly #calls = new Map<string, number>();
  #cpuQuota: number | undefined;
  #rate: { perSecond: number; windowStart: number; used: number } | undefined;

  constructor(deps: { readonly clock: Clock }) {
    this.#clock = deps.clock;
  }

  /** The pool has `remaining` launches left (0 by default: stocked out). */
  stockout(pool: GcePool, remaining = 0): void {
    this.#stockouts.set(poolKey(pool), remaining);
  }

  /** Whether one more VM fits the pool; consumes one launch of a limited pool. */
  takeCapacity(pool: GcePool): boolean {
    const left = this.#stockouts.get(poolKey(pool));
    if (left === undefined) return true;
    if (left <= 0) return false;
    this.#stockouts.set(poolKey(pool), left - 1);
    return true;
  }

  /** Whether the pool would have capacity now, without taking any. */
  hasCapacity(pool: GcePool): boolean {
    const left = this.#stockouts.get(poolKey(pool));
    return left === undefined || left > 0;
  }

  /** The regional CPUS quota; inserts beyond it fail with QUOTA_EXCEEDED. */
  cpuQuota(limit: number | undefined): void {
    this.#cpuQuota = limit;
  }

  get cpuLimit(): number | undefined {
    return this.#cpuQuota;
  }

  /** The next `n` calls (of `method`, or any) fail with `kind`. */
  failNext(n: number, kind: InjectedFailure, method?: string): void {
    this.#counted.push({ method, kind, remaining: n });
  }

  /** At most `perSecond` calls per clock second; the rest get 403 rateLimitExceeded. */
  rateLimit(perSecond: number | undefined): void {
    this.#rate = perSecond === undefined ? undefined : { perSecond, windowStart: this.#clock.now(), used: 0 };
  }

  /** Every call of `method` (or `*`) waits `ms` before it is answered. */
  latency(method: string, ms: number): void {
    this.#latency.always(method, ms);
  }

  /**
   * The next `count` calls of `method` wait `ms` before they are answered; later ones do not.
   * AwsFaults.latencyNext's shape.
   */
  latencyNext(method: string, ms: number, count: number): void {
    this.#latency.next(method, ms, count);
  }

  /** The wait of this call of `method` (latencyNext, which it counts off, else latency's). */
  latencyOf(method: string): number {
    return this.#latency.of(method);
  }

  /** Counts the call and returns the failure it gets, if any. */
  check(method: string): InjectedFailure | undefined {
    this.#calls.set(method, (this.#calls.get(method) ?? 0) + 1);
    const fault = this.#counted.find(
      (f) => f.remaining > 0 && (f.method === undefined || f.method === method),
    );
    if (fault !== undefined) {
      fault.remaining--;
      return fault.kind;
    }
    const rate = this.#rate;
    if (rate !== undefined) {
      const now = this.#clock.now();
      if (now - rate.windowStart >= 1000) {
        rate.windowStart = now;
        rate.used = 0;
      }
      rate.used++;
      if (rate.used > rate.perSecond) return 'rateLimit';
    }
    return undefined;
  }

  /** How many calls `method` got (faulted ones included). */
  calls(method: string): number {
    return this.#calls.get(method) ?? 0;
  }

  /** How many calls all methods got (faulted ones included). */
  totalCalls(): number {
    let total = 0;
    for (const n of this.#calls.values()) total += n;
    return total;
  }

  reset(): void {
    this.#stockouts.clear();
    this.#counted.length = 0;
    this.#latency.clear();
    this.#calls.clear();
    this.#cpuQuota = undefined;
    this.#rate = undefined;
  }
}
