import { z } from 'zod';
import { labelSelectorSchema } from './label-selector.js';
import { namespacedObjectMetaSchema, objectConditionSchema } from './meta.js';
import { optional } from './optional.js';

/**
 * An int-or-string count as PDBs take it: a non-negative integer, or a percentage from 0% to
 * 100%. A string holding a bare number ("1") is rejected, as the API server rejects it.
 */
export const intOrPercentSchema = z.union([
  z
    .number()
    .int({ error: 'must be a whole number or a percentage such as 50%' })
    .min(0, { error: 'must not be negative' }),
  z.string().superRefine((text, ctx) => {
    const match = /^(\d+)%$/.exec(text);
    if (match === null) {
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(text)} must be a whole number or a percentage such as 50%`,
      });
    } else if (Number(match[1]) > 100) {
      ctx.addIssue({ code: 'custom', message: 'must not be more than 100%' });
    }
  }),
]);
export type IntOrPercent = z.output<typeof intOrPercentSchema>;

/**
 * A policy/v1 PodDisruptionBudget. An empty selector selects every pod in the namespace; an
 * absent one selects none. `status.disruptionsAllowed` is what eviction (and disruption)
 * consults; minAvailable and maxUnavailable exclude each other.
 */
export const podDisruptionBudgetSchema = z.looseObject({
  apiVersion: z.literal('policy/v1'),
  kind: z.literal('PodDisruptionBudget'),
  metadata: namespacedObjectMetaSchema,
  spec: z
    .looseObject({
      selector: optional(labelSelectorSchema),
      minAvailable: optional(intOrPercentSchema),
      maxUnavailable: optional(intOrPercentSchema),
      unhealthyPodEvictionPolicy: optional(z.enum(['IfHealthyBudget', 'AlwaysAllow'])),
    })
    .superRefine((spec, ctx) => {
      if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['maxUnavailable'],
          message: 'must not be set together with minAvailable',
        });
      }
    }),
  status: optional(
    z.looseObject({
      disruptionsAllowed: optional(z.number().int().min(0, { error: 'must not be negative' })),
      currentHealthy: optional(z.number().int()),
      desiredHealthy: optional(z.number().int()),
      expectedPods: optional(z.number().int()),
      observedGeneration: optional(z.number().int()),
      disruptedPods: optional(z.record(z.string(), z.string())),
      conditions: optional(z.array(objectConditionSchema)),
    }),
  ),
});
/** A policy/v1 PodDisruptionBudget. */
export type PodDisruptionBudget = z.output<typeof podDisruptionBudgetSchema>;
