import type { GceOperation } from '../sdk/compute-api.js';

/** What a failed insert operation means for the offering it tried. */
export type InsertFailure =
  | { readonly kind: 'stockout'; readonly code: string; readonly message: string }
  | { readonly kind: 'quota'; readonly code: string; readonly message: string }
  | { readonly kind: 'other'; readonly code: string; readonly message: string };

/** Codes GCE reports when a zone has no capacity for the machine type and provisioning model. */
export const StockoutCodes: ReadonlySet<string> = new Set([
  'ZONE_RESOURCE_POOL_EXHAUSTED',
  'ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS',
  'RESOURCE_POOL_EXHAUSTED',
  'STOCKOUT',
]);

/** Codes for regional quota: every zone of the region is refused alike. */
export const QuotaCodes: ReadonlySet<string> = new Set(['QUOTA_EXCEEDED']);

/** The failure a DONE operation reports, or undefined when it succeeded. */
export function operationFailure(op: GceOperation): InsertFailure | undefined {
  const first = op.error?.errors?.[0];
  if (first === undefined) return undefined;
  const code = first.code ?? 'UNKNOWN';
  const message = first.message ?? code;
  if (StockoutCodes.has(code)) return { kind: 'stockout', code, message };
  if (QuotaCodes.has(code)) return { kind: 'quota', code, message };
  return { kind: 'other', code, message };
}
