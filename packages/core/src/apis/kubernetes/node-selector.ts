import { z } from 'zod';
import { qualifiedNameSchema } from './names.js';
import { optional } from './optional.js';

export const nodeAffinityOperators = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] as const;
export type NodeAffinityOperator = (typeof nodeAffinityOperators)[number];

const Integer = /^[+-]?\d+$/;

/**
 * One node selector expression, checked as the API server checks it: In and NotIn need
 * values, Exists and DoesNotExist take none, Gt and Lt take exactly one value, which must be
 * an integer (the scheduler cannot compare anything else). Values are not held to label
 * syntax, as Kubernetes does not hold them to it.
 */
export const nodeSelectorRequirementSchema = z
  .looseObject({
    key: qualifiedNameSchema,
    operator: z.enum(nodeAffinityOperators),
    values: optional(z.array(z.string())),
  })
  .superRefine((req, ctx) => {
    const values = req.values ?? [];
    const issue = (message: string) => ctx.addIssue({ code: 'custom', path: ['values'], message });
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) issue(`must have at least one value for operator ${req.operator}`);
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) issue(`must be empty for operator ${req.operator}`);
        break;
      case 'Gt':
      case 'Lt':
        if (values.length !== 1 || !Integer.test(values[0]!)) {
          issue(`must have exactly one integer value for operator ${req.operator}`);
        }
        break;
    }
  });
export type NodeSelectorRequirement = z.output<typeof nodeSelectorRequirementSchema>;

/**
 * A field selector expression. Kubernetes supports only `metadata.name` with In or NotIn and a
 * single value.
 */
export const nodeFieldSelectorRequirementSchema = z
  .looseObject({
    key: z.literal('metadata.name', {
      error: 'must be metadata.name, the only field nodes can be selected by',
    }),
    operator: z.enum(['In', 'NotIn'], { error: 'must be In or NotIn for matchFields' }),
    values: z.array(z.string()),
  })
  .superRefine((req, ctx) => {
    if (req.values.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: ['values'],
        message: 'must have exactly one value for matchFields',
      });
    }
  });
export type NodeFieldSelectorRequirement = z.output<typeof nodeFieldSelectorRequirementSchema>;

/** One node selector term: its expressions and fields are ANDed. */
export const nodeSelectorTermSchema = z.looseObject({
  matchExpressions: optional(z.array(nodeSelectorRequirementSchema)),
  matchFields: optional(z.array(nodeFieldSelectorRequirementSchema)),
});
export type NodeSelectorTerm = z.output<typeof nodeSelectorTermSchema>;

/** A node selector: its terms are ORed; at least one is required. */
export const nodeSelectorSchema = z.looseObject({
  nodeSelectorTerms: z.array(nodeSelectorTermSchema).min(1, { error: 'must have at least one term' }),
});
export type NodeSelector = z.output<typeof nodeSelectorSchema>;
