import { z } from 'zod';
import { timestampSchema } from './meta.js';
import { labelValueSchema, qualifiedNameSchema } from './names.js';
import { optional } from './optional.js';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

const effectSchema = z.enum(taintEffects);

/** A node taint: key (a qualified name), optional value (label-value syntax) and effect. */
export const nodeTaintSchema = z.looseObject({
  key: qualifiedNameSchema,
  value: optional(labelValueSchema),
  effect: effectSchema,
  timeAdded: optional(timestampSchema),
});
export type NodeTaint = z.output<typeof nodeTaintSchema>;

/**
 * A pod toleration. An absent operator means Equal; an absent effect matches every effect; an
 * empty key with Exists tolerates everything. Checked as the API server does: Exists takes no
 * value, other values use label-value syntax, an empty key needs Exists, and tolerationSeconds
 * only applies to NoExecute.
 */
export const tolerationSchema = z
  .looseObject({
    key: optional(z.string()),
    operator: optional(z.enum(['Exists', 'Equal'])),
    value: optional(z.string()),
    effect: optional(z.enum([...taintEffects, ''])),
    tolerationSeconds: optional(z.number().int({ error: 'must be a whole number of seconds' })),
  })
  .superRefine((t, ctx) => {
    const key = t.key ?? '';
    if (key !== '') {
      for (const issue of qualifiedNameSchema.safeParse(key).error?.issues ?? []) {
        ctx.addIssue({ code: 'custom', path: ['key'], message: issue.message });
      }
    }
    if (t.operator === 'Exists' && (t.value ?? '') !== '') {
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'must be empty when operator is Exists' });
    } else if (t.value !== undefined) {
      for (const issue of labelValueSchema.safeParse(t.value).error?.issues ?? []) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: issue.message });
      }
    }
    if (key === '' && t.operator !== 'Exists') {
      ctx.addIssue({
        code: 'custom',
        path: ['operator'],
        message: 'must be Exists when key is empty (an empty key tolerates every taint)',
      });
    }
    if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
      ctx.addIssue({
        code: 'custom',
        path: ['effect'],
        message: 'must be NoExecute when tolerationSeconds is set',
      });
    }
  });
export type Toleration = z.output<typeof tolerationSchema>;
