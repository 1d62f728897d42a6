import type { Quantity } from '../quantity/quantity.js';
import { quantityOf, type ResourceList } from './resource-list.js';

/**
 * Why a request does not fit: either the resource is short, or the available amount is already
 * negative (overcommitted), which Karpenter treats as fitting nothing.
 */
export interface ResourceShortfall {
  readonly resource: string;
  readonly kind: 'insufficient' | 'overcommitted';
  readonly requested: Quantity;
  readonly available: Quantity;
}

/**
 * Karpenter's Fits: every requested quantity is at most the available one (a name missing from
 * available is zero, so only a zero request for it fits), and no available quantity is negative.
 */
export function fits(requests: ResourceList, available: ResourceList): boolean {
  for (const q of available.values()) if (q.nanos < 0n) return false;
  for (const [name, q] of requests) {
    const a = available.get(name);
    if (a === undefined ? q.nanos > 0n : q.nanos > a.nanos) return false;
  }
  return true;
}

/**
 * Every reason {@link fits} would give false, overcommitted resources first (names in the
 * lists' order). Empty exactly when the requests fit.
 */
export function shortfalls(requests: ResourceList, available: ResourceList): ResourceShortfall[] {
  const out: ResourceShortfall[] = [];
  for (const [resource, a] of available) {
    if (a.nanos < 0n)
      out.push({ resource, kind: 'overcommitted', requested: quantityOf(requests, resource), available: a });
  }
  for (const [resource, requested] of requests) {
    const a = quantityOf(available, resource);
    if (requested.nanos > a.nanos && a.nanos >= 0n)
      out.push({ resource, kind: 'insufficient', requested, available: a });
  }
  return out;
}

/** e.g. `cpu: requested 2, available 1500m (short by 500m)`. */
export function describeShortfall(s: ResourceShortfall): string {
  if (s.kind === 'overcommitted')
    return `${s.resource}: available ${s.available} is negative (overcommitted)`;
  return `${s.resource}: requested ${s.requested}, available ${s.available} (short by ${s.requested.sub(s.available)})`;
}

/** All shortfalls joined with "; ", or undefined when the requests fit. */
export function explainMisfit(requests: ResourceList, available: ResourceList): string | undefined {
  const found = shortfalls(requests, available);
  return found.length === 0 ? undefined : found.map(describeShortfall).join('; ');
}
