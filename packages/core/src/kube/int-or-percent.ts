/** An `intstr.IntOrString` as PDBs and budgets carry it: `3` or `"30%"`. */
export type IntOrPercent = number | string;

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

/** True for the percentage form. */
export function isPercent(value: IntOrPercent): value is string {
  return typeof value === 'string';
}
