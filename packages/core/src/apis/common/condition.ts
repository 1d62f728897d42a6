import { z } from 'zod';
import { dateTime, int64 } from './primitives.js';

const ConditionTypePattern =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$';
const ReasonPattern = '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$';
const ReasonOrEmptyPattern = '^([A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?|)$';

export interface ConditionOptions {
  /**
   * NodeClaims accept conditions written by older controllers, which may lack a reason and a
   * message (as upstream's NodeClaim CRD does); the other kinds require both.
   */
  readonly lenient?: boolean;
}

/** One `metav1.Condition`: type, status True/False/Unknown, reason, message, times. */
export function conditionSchema(options: ConditionOptions = {}) {
  const reason = z
    .string()
    .max(1024)
    .regex(
      new RegExp(options.lenient ? ReasonOrEmptyPattern : ReasonPattern),
      'must be a CamelCase reason such as NodeClassNotReady',
    );
  const message = z.string().max(32768);
  return z.object({
    type: z
      .string()
      .max(316)
      .regex(new RegExp(ConditionTypePattern), 'must be a condition type in CamelCase, e.g. Ready'),
    status: z.enum(['True', 'False', 'Unknown'], { error: 'must be one of True, False, Unknown' }),
    observedGeneration: int64().min(0).optional(),
    lastTransitionTime: dateTime(),
    reason: options.lenient ? reason.optional() : reason.min(1, 'must not be empty'),
    message: options.lenient ? message.optional() : message,
  });
}
export type Condition = z.output<ReturnType<typeof conditionSchema>>;

/** `status.conditions`: a list keyed by condition type, each type at most once. */
export function conditionsSchema(options: ConditionOptions = {}) {
  return z
    .array(conditionSchema(options))
    .superRefine((conditions, ctx) => {
      const seen = new Set<string>();
      conditions.forEach((c, i) => {
        if (seen.has(c.type)) {
          ctx.addIssue({
            code: 'custom',
            message: `condition type ${c.type} appears more than once`,
            path: [i, 'type'],
            input: c,
          });
        }
        seen.add(c.type);
      });
    })
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
}
