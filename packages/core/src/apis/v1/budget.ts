import { z } from 'zod';
import { withRules } from '../common/cel.js';
import { cronSchedule } from '../common/cron.js';
import { budgetDuration } from '../common/duration.js';

/** Disruption reasons a budget can be limited to. */
export const DisruptionReasons = ['Underutilized', 'Empty', 'Drifted'] as const;
export type DisruptionReason = (typeof DisruptionReasons)[number];

/** A budget's `nodes`: a count (`5`) or a percentage of the NodePool's nodes (`10%`). */
export const BudgetNodesPattern = '^((100|[0-9]{1,2})%|[0-9]+)$';
export const MaxBudgets = 50;

/**
 * How many of a NodePool's nodes may be disrupted at once, optionally only during a cron
 * window (`schedule` + `duration`, set together) and only for some reasons.
 */
export const budgetSchema = withRules(
  z
    .strictObject({
      nodes: z
        .string({ error: 'must be a string such as "10%" or "5" (quote numbers)' })
        .regex(
          new RegExp(BudgetNodesPattern),
          'must be a node count such as 5 or a percentage from 0% to 100%',
        )
        .default('10%')
        .describe(
          'How many nodes may be disrupted at once: a count such as "5" or a percentage such as "10%".',
        ),
      schedule: cronSchedule()
        .optional()
        .describe('When the budget starts to apply, as a cron schedule in UTC; always applies if unset.'),
      duration: budgetDuration().optional().describe('How long the budget applies after each schedule hit.'),
      reasons: z
        .array(z.enum(DisruptionReasons, { error: `must be one of ${DisruptionReasons.join(', ')}` }))
        .max(MaxBudgets, `must have at most ${MaxBudgets} reasons`)
        .superRefine((reasons, ctx) => {
          reasons.forEach((r, i) => {
            if (reasons.indexOf(r) !== i) {
              ctx.addIssue({ code: 'custom', message: `lists ${r} twice`, path: [i], input: r });
            }
          });
        })
        .meta({
          'x-kubernetes-list-type': 'set',
          description:
            'The disruption reasons the budget limits (Underutilized, Empty, Drifted); all if unset.',
        })
        .optional(),
    })
    .describe('A limit on how many nodes may be disrupted at once.'),
  [
    {
      cel: {
        rule: '!has(self.schedule) || has(self.duration)',
        message: 'duration is required when schedule is set',
        fieldPath: '.duration',
      },
      check: (b) => b.schedule !== undefined && b.duration === undefined && { path: ['duration'] },
    },
    {
      cel: {
        rule: '!has(self.duration) || has(self.schedule)',
        message: 'schedule is required when duration is set',
        fieldPath: '.schedule',
      },
      check: (b) => b.duration !== undefined && b.schedule === undefined && { path: ['schedule'] },
    },
  ],
);
export type Budget = z.output<typeof budgetSchema>;
