export type { Lease, LeaseSpec } from '../../kube/resource-types.js';
export { Leases } from '../../kube/resource-types.js';

/**
 * A time as metav1.MicroTime serialises it (`2026-03-01T12:00:00.123000Z`): the API server
 * parses exactly six fractional digits.
 */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
