import { z } from 'zod';
import { labelSelectorSchema } from './label-selector.js';
import { qualifiedNameSchema } from './names.js';
import { optional } from './optional.js';

export const whenUnsatisfiableValues = ['DoNotSchedule', 'ScheduleAnyway'] as const;
export type WhenUnsatisfiable = (typeof whenUnsatisfiableValues)[number];

export const nodeInclusionPolicies = ['Honor', 'Ignore'] as const;
export type NodeInclusionPolicy = (typeof nodeInclusionPolicies)[number];

/**
 * A topology spread constraint. Absent policies mean what Kubernetes means by them:
 * nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore; an absent minDomains means 1. Checked as
 * the API server does: maxSkew and minDomains positive, minDomains only with DoNotSchedule.
 */
export const topologySpreadConstraintSchema = z
  .looseObject({
    maxSkew: z
      .number()
      .int({ error: 'must be a whole number greater than 0' })
      .min(1, { error: 'must be greater than 0' }),
    minDomains: optional(
      z
        .number()
        .int({ error: 'must be a whole number greater than 0' })
        .min(1, { error: 'must be greater than 0' }),
    ),
    topologyKey: qualifiedNameSchema,
    whenUnsatisfiable: z.enum(whenUnsatisfiableValues),
    labelSelector: optional(labelSelectorSchema),
    matchLabelKeys: optional(z.array(qualifiedNameSchema)),
    nodeAffinityPolicy: optional(z.enum(nodeInclusionPolicies)),
    nodeTaintsPolicy: optional(z.enum(nodeInclusionPolicies)),
  })
  .superRefine((c, ctx) => {
    if (c.minDomains !== undefined && c.whenUnsatisfiable !== 'DoNotSchedule') {
      ctx.addIssue({
        code: 'custom',
        path: ['minDomains'],
        message: 'may only be set when whenUnsatisfiable is DoNotSchedule',
      });
    }
    const selectorKeys = new Set([
      ...Object.keys(c.labelSelector?.matchLabels ?? {}),
      ...(c.labelSelector?.matchExpressions ?? []).map((e) => e.key),
    ]);
    for (const [i, key] of (c.matchLabelKeys ?? []).entries()) {
      if (c.labelSelector === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['matchLabelKeys'],
          message: 'must not be set when labelSelector is not set',
        });
        break;
      }
      if (selectorKeys.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['matchLabelKeys', i],
          message: `${JSON.stringify(key)} is already in labelSelector; it must not be in matchLabelKeys too`,
        });
      }
    }
  });
export type TopologySpreadConstraint = z.output<typeof topologySpreadConstraintSchema>;
