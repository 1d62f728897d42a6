import { z } from 'zod';
import { labelsSchema, labelValueSchema, qualifiedNameSchema } from './names.js';
import { optional } from './optional.js';

export const labelSelectorOperators = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
export type LabelSelectorOperator = (typeof labelSelectorOperators)[number];

/**
 * One `matchExpressions` entry. In and NotIn need at least one value; Exists and DoesNotExist
 * take none, as the API server insists.
 */
export const labelSelectorRequirementSchema = z
  .looseObject({
    key: qualifiedNameSchema,
    operator: z.enum(labelSelectorOperators),
    values: optional(z.array(labelValueSchema)),
  })
  .superRefine((req, ctx) => {
    const count = req.values?.length ?? 0;
    if ((req.operator === 'In' || req.operator === 'NotIn') && count === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['values'],
        message: `must have at least one value for operator ${req.operator}`,
      });
    }
    if ((req.operator === 'Exists' || req.operator === 'DoesNotExist') && count > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['values'],
        message: `must be empty for operator ${req.operator}`,
      });
    }
  });
export type LabelSelectorRequirement = z.output<typeof labelSelectorRequirementSchema>;

/** A label selector: `matchLabels` and `matchExpressions`, all of which must hold. */
export const labelSelectorSchema = z.looseObject({
  matchLabels: optional(labelsSchema),
  matchExpressions: optional(z.array(labelSelectorRequirementSchema)),
});
export type LabelSelector = z.output<typeof labelSelectorSchema>;

/**
 * Whether a set of labels satisfies a label selector, with Kubernetes' semantics: every
 * `matchLabels` pair and every expression must hold; NotIn and DoesNotExist hold when the key
 * is absent; an empty selector (`{}`) selects everything; an absent selector (undefined or
 * null) selects nothing.
 */
export function matchesLabelSelector(
  selector: LabelSelector | null | undefined,
  labels: Readonly<Record<string, string>> | null | undefined,
): boolean {
  if (selector === undefined || selector === null) return false;
  const have = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (!Object.hasOwn(have, key) || have[key] !== value) return false;
  }
  return (selector.matchExpressions ?? []).every((req) => matchesRequirement(req, have));
}

function matchesRequirement(
  req: LabelSelectorRequirement,
  labels: Readonly<Record<string, string>>,
): boolean {
  const present = Object.hasOwn(labels, req.key);
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return present && values.includes(labels[req.key]!);
    case 'NotIn':
      return !present || !values.includes(labels[req.key]!);
    case 'Exists':
      return present;
    case 'DoesNotExist':
      return !present;
  }
}
