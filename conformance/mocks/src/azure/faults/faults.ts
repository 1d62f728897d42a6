import { LatencyFaults } from '../../latency/latency-faults.js';
import { ArmError } from '../arm/errors.js';

/** VM priority as ARM names it. */
export type VmPriority = 'Regular' | 'Spot';

/** The allocation errors ARM reports when a size cannot be placed. */
export type AllocationErrorCode =
  | 'ZonalAllocationFailed'
  | 'AllocationFailed'
  | 'SkuNotAvailable'
  | 'OverconstrainedAllocationRequest'
  | 'OverconstrainedZonalAllocationRequest';

/** Which launches an allocation fault hits; an unset field matches every value. */
export interface AllocationScope {
  readonly size: string;
  readonly zone?: string;
  readonly priority?: VmPriority;
}

interface AllocationFault extends AllocationScope {
  readonly code: AllocationErrorCode;
}

interface CountedFault {
  remaining: number;
  readonly error: () => ArmError;
}

const ALLOCATION_MESSAGES: Record<AllocationErrorCode, string> = {
  ZonalAllocationFailed:
    'Allocation failed. We do not have sufficient capacity for the requested VM size in this zone.',
  AllocationFailed:
    'Allocation failed. We do not have sufficient capacity for the requested VM size in this region.',
  SkuNotAvailable: 'The requested VM size is currently not available in this location or zone.',
  OverconstrainedAllocationRequest:
    'Allocation failed. VM(s) with the following constraints cannot be allocated, because the condition is too restrictive.',
  OverconstrainedZonalAllocationRequest:
    'Allocation failed. VM(s) with the following constraints cannot be allocated in this zone, because the condition is too restrictive.',
};

/**
 * Faults a test switches on: allocation failures per size x zone x priority, core quotas per
 * family and for Spot, throttling with Retry-After, 5xx, and latency. Per instance, no module
 * state; `reset()` clears them.
 */
export class AzureFaults {
  #allocation: AllocationFault[] = [];
  #counted: CountedFault[] = [];
  #familyQuota = new Map<string, number>();
  #spotQuota: number | undefined;
  readonly #latency = new LatencyFaults();
  #requests = 0;

  /** Launches in scope fail with `code` (in the create's async operation, as ARM does). */
  failAllocation(scope: AllocationScope, code: AllocationErrorCode = 'ZonalAllocationFailed'): void {
    this.#allocation.push({ ...scope, code });
  }

  /** Lets launches in scope through again. */
  restoreAllocation(scope: AllocationScope): void {
    this.#allocation = this.#allocation.filter(
      (f) => !(f.size === scope.size && f.zone === scope.zone && f.priority === scope.priority),
    );
  }

  /** The allocation error a launch meets, if any. */
  allocationError(size: string, zone: string | undefined, priority: VmPriority): ArmError | undefined {
    const hit = this.#allocation.find(
      (f) =>
        f.size === size &&
        (f.zone === undefined || f.zone === zone) &&
        (f.priority === undefined || f.priority === priority),
    );
    if (hit === undefined) return undefined;
    const status = hit.code === 'SkuNotAvailable' ? 409 : 200;
    return new ArmError(status, hit.code, ALLOCATION_MESSAGES[hit.code]);
  }

  /** Caps the regular vCPUs of one SKU family (its `family`, e.g. standardDSv5Family). */
  limitFamilyCores(family: string, cores: number): void {
    this.#familyQuota.set(family, cores);
  }

  /** Caps the Spot (low-priority) vCPUs of the subscription in the region. */
  limitSpotCores(cores: number): void {
    this.#spotQuota = cores;
  }

  /** The quota error a launch of `cores` more vCPUs meets, given what is in use. */
  quotaError(
    family: string,
    priority: VmPriority,
    cores: number,
    inUse: { readonly family: number; readonly spot: number },
  ): ArmError | undefined {
    if (priority === 'Spot') {
      if (this.#spotQuota !== undefined && inUse.spot + cores > this.#spotQuota) {
        return new ArmError(
          409,
          'OperationNotAllowed',
          `Operation could not be completed as it results in exceeding approved LowPriorityCores quota. Current Limit: ${this.#spotQuota}, Current Usage: ${inUse.spot}, Additional Required: ${cores}.`,
        );
      }
      return undefined;
    }
    const limit = this.#familyQuota.get(family);
    if (limit !== undefined && inUse.family + cores > limit) {
      return new ArmError(
        409,
        'OperationNotAllowed',
        `Operation could not be completed as it results in exceeding approved ${family} Cores quota. Current Limit: ${limit}, Current Usage: ${inUse.family}, Additional Required: ${cores}.`,
      );
    }
    return undefined;
  }

  /** The next `count` requests get 429 TooManyRequests with `Retry-After: retryAfterSeconds`. */
  throttleNext(count: number, retryAfterSeconds = 1): void {
    this.#counted.push({
      remaining: count,
      error: () =>
        new ArmError(429, 'TooManyRequests', 'The request is being throttled.', {
          'retry-after': String(retryAfterSeconds),
        }),
    });
  }

  /** The next `count` requests fail with `status` (500 InternalServerError, 503 ServiceUnavailable). */
  failNext(count: number, status: 500 | 503 = 500): void {
    const code = status === 503 ? 'ServiceUnavailable' : 'InternalServerError';
    this.#counted.push({
      remaining: count,
      error: () =>
        new ArmError(status, code, 'The server encountered an internal error. Please retry the request.'),
    });
  }

  /** The failure the next request meets before it is handled, if any; counts the request. */
  admit(): ArmError | undefined {
    this.#requests++;
    const fault = this.#counted.find((f) => f.remaining > 0);
    if (fault === undefined) return undefined;
    fault.remaining--;
    return fault.error();
  }

  /** Requests the mock has answered past authentication, faulted ones included (not reset). */
  get requests(): number {
    return this.#requests;
  }

  /** Delay before each request is handled. */
  setLatency(ms: number): void {
    this.#latency.always('*', ms);
  }

  /**
   * The next `count` requests of `operation` (the mock's handler name: getVm, putVm, listSkus,
   * putNic, ...) wait `ms` before they are answered; later ones do not. AwsFaults.latencyNext's
   * shape.
   */
  latencyNext(operation: string, ms: number, count: number): void {
    this.#latency.next(operation, ms, count);
  }

  /** The wait of this request of `operation` (latencyNext, which it counts off, else setLatency's). */
  latencyOf(operation: string): number {
    return this.#latency.of(operation);
  }

  reset(): void {
    this.#allocation = [];
    this.#counted = [];
    this.#familyQuota.clear();
    this.#spotQuota = undefined;
    this.#latency.clear();
  }
}
