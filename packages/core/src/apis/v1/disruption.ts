import { z } from 'zod';
import { durationOrNever } from '../common/duration.js';
import { budgetSchema, MaxBudgets } from './budget.js';

export const ConsolidationPolicies = ['WhenEmpty', 'WhenEmptyOrUnderutilized', 'Balanced'] as const;
export type ConsolidationPolicy = (typeof ConsolidationPolicies)[number];

/** How and when a NodePool's nodes may be disrupted voluntarily. Defaults as upstream. */
export const disruptionSchema = z
  .strictObject({
    consolidateAfter: durationOrNever()
      .default('0s')
      .describe(
        'How long a node must be consolidatable (no pod scheduled or removed) before it is consolidated; Never disables consolidation.',
      ),
    consolidationPolicy: z
      .enum(ConsolidationPolicies, { error: `must be one of ${ConsolidationPolicies.join(', ')}` })
      .default('WhenEmptyOrUnderutilized')
      .describe(
        'Which nodes consolidation may remove: only empty ones (WhenEmpty), also underutilized ones (WhenEmptyOrUnderutilized), or underutilized ones only when the share of the pool cost a move saves is at least half the share of the pool disruption it causes (Balanced).',
      ),
    budgets: z
      .array(budgetSchema)
      .max(MaxBudgets, `must have at most ${MaxBudgets} budgets`)
      .default(() => [{ nodes: '10%' }])
      .meta({
        'x-kubernetes-list-type': 'atomic',
        description: 'Limits on concurrent disruptions; the most restrictive active budget wins.',
      }),
  })
  .describe('How nodes of this NodePool are disrupted.');
export type Disruption = z.output<typeof disruptionSchema>;
