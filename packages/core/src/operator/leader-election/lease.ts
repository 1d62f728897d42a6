import { Leases as UntypedLeases } from '../../kube/builtin-types.js';
import type { KubeObject } from '../../kube/object.js';
import type { ResourceType } from '../../kube/resource-type.js';

/** `coordination.k8s.io/v1` LeaseSpec: who holds the lease and since when. */
export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** metav1.MicroTime: RFC 3339 with microseconds. */
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/** A `coordination.k8s.io/v1` Lease. */
export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

/** `coordination.k8s.io/v1` Leases, typed (the kube module's built-in descriptor). */
export const Leases = UntypedLeases as ResourceType<Lease>;

/**
 * A time as metav1.MicroTime serialises it (`2026-03-01T12:00:00.123000Z`): the API server
 * parses exactly six fractional digits.
 */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
