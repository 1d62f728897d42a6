import { z } from 'zod';
import { isQuantity, type ResourceListJson } from '../common/primitives.js';
import { qualifiedNameProblem } from './names.js';

const QuantityMessage =
  'must be a Kubernetes quantity: a number with an optional suffix such as 100m, 2, 1.5Gi or 512Mi';

/**
 * A quantity written as a string or as a plain YAML number (`cpu: 2`, `cpu: 0.5`, which
 * Kubernetes accepts in pods); numbers are normalised to their decimal string so every
 * consumer sees the Kubernetes string form.
 */
export const quantitySchema = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const text = typeof value === 'number' ? numberText(value) : value;
  if (text === undefined || !isQuantity(text)) {
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} ${QuantityMessage}` });
    return z.NEVER;
  }
  return text;
});

/** A quantity that must not be negative, as resource requests, limits and capacities must not. */
export const nonNegativeQuantitySchema = quantitySchema.refine((text) => !text.startsWith('-'), {
  error: 'must not be negative',
});

/**
 * A resource list (`requests`, `limits`, `capacity`, `allocatable`): resource names such as
 * `cpu`, `memory`, `pods` or `nvidia.com/gpu` mapped to non-negative quantities.
 */
export const resourceListSchema: z.ZodType<ResourceListJson, unknown> = z.record(
  z.string().superRefine((name, ctx) => {
    const problem = qualifiedNameProblem(name);
    if (problem !== undefined) {
      ctx.addIssue({ code: 'custom', message: `resource name ${JSON.stringify(name)} ${problem}` });
    }
  }),
  nonNegativeQuantitySchema,
);

const Multipliers: Readonly<Record<string, number>> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/**
 * The value of a quantity as a floating-point number (`100m` -> 0.1, `1Ki` -> 1024), for
 * validation that compares quantities (requests <= limits). Precise arithmetic belongs to the
 * scheduling package; this is close enough to order two quantities a user wrote.
 */
export function approximateQuantity(text: string): number {
  const match = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(.*)$/.exec(text);
  if (match === null) return Number.NaN;
  const [, mantissa = '', suffix = ''] = match;
  if (/^[eE]/.test(suffix)) return Number(mantissa) * 10 ** Number(suffix.slice(1));
  const multiplier = Multipliers[suffix];
  return multiplier === undefined ? Number.NaN : Number(mantissa) * multiplier;
}

function numberText(value: number): string | undefined {
  if (!Number.isFinite(value)) return undefined;
  // String(1e21) is "1e+21", which the quantity syntax accepts; plain numbers stay plain.
  return String(value);
}
