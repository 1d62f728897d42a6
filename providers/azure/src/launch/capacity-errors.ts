import type { ArmFailure } from '../sdk/arm-error.js';

/**
 * Which offerings an ARM failure says are out of capacity: just the one launched, the size in
 * every zone, every offering of the capacity type (Spot core quota), or every size of a quota
 * family. Undefined for a failure that is not about capacity.
 */
export type CapacityScope =
  | { readonly scope: 'offering' }
  | { readonly scope: 'size' }
  | { readonly scope: 'capacity-type' }
  | { readonly scope: 'family'; readonly family: string };

/** How long each kind of refusal keeps offerings unavailable. */
export const UnavailableTtlMs = {
  allocation: 3 * 60_000,
  skuNotAvailable: 60 * 60_000,
  quota: 60 * 60_000,
} as const;

/**
 * Classifies ARM's capacity errors: ZonalAllocationFailed and OverconstrainedZonalAllocationRequest
 * (the size in that zone), AllocationFailed and OverconstrainedAllocationRequest (the size in the
 * region), SkuNotAvailable (the size, for an hour), OperationNotAllowed for LowPriorityCores (all
 * Spot) or a family's cores quota (that family), each with its TTL.
 */
export function capacityScope(
  failure: ArmFailure,
  family: string,
): { readonly scope: CapacityScope; readonly ttlMs: number } | undefined {
  switch (failure.code) {
    case 'ZonalAllocationFailed':
    case 'OverconstrainedZonalAllocationRequest':
      return { scope: { scope: 'offering' }, ttlMs: UnavailableTtlMs.allocation };
    case 'AllocationFailed':
    case 'OverconstrainedAllocationRequest':
      return { scope: { scope: 'size' }, ttlMs: UnavailableTtlMs.allocation };
    case 'SkuNotAvailable':
      return { scope: { scope: 'size' }, ttlMs: UnavailableTtlMs.skuNotAvailable };
    case 'OperationNotAllowed':
    case 'QuotaExceeded': {
      if (/LowPriorityCores/i.test(failure.message)) {
        return { scope: { scope: 'capacity-type' }, ttlMs: UnavailableTtlMs.quota };
      }
      if (/quota/i.test(failure.message))
        return { scope: { scope: 'family', family }, ttlMs: UnavailableTtlMs.quota };
      return undefined;
    }
    default:
      return undefined;
  }
}
