import type { IntOrPercent } from '../apis/kubernetes/pod-disruption-budget.js';

/**
 * Resolves an int-or-percent against a total, as `intstr.GetScaledValueFromIntOrPercent`:
 * integers pass through; `"N%"` scales to N% of the total, rounded up or down. A string that is
 * not a percentage throws, as Kubernetes rejects it.
 */
export function scaledValue(value: IntOrPercent, total: number, roundUp: boolean): number {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`invalid value for IntOrString: ${value}`);
    return value;
  }
  const match = /^(\d+)%$/.exec(value);
  if (match === null)
    throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}
