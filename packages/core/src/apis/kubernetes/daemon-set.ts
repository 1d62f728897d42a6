import { z } from 'zod';
import { labelSelectorSchema, matchesLabelSelector } from './label-selector.js';
import { namespacedObjectMetaSchema } from './meta.js';
import { podTemplateSpecSchema } from './pod.js';

/**
 * An apps/v1 DaemonSet. Only its pod template matters to nodewright: each node the template's
 * scheduling constraints admit runs one such pod, whose requests are per-node overhead. The
 * selector must select the template's labels, as the API server requires.
 */
export const daemonSetSchema = z.looseObject({
  apiVersion: z.literal('apps/v1'),
  kind: z.literal('DaemonSet'),
  metadata: namespacedObjectMetaSchema,
  spec: z
    .looseObject({
      selector: labelSelectorSchema,
      template: podTemplateSpecSchema,
    })
    .superRefine((spec, ctx) => {
      const selectsNothing =
        Object.keys(spec.selector.matchLabels ?? {}).length === 0 &&
        (spec.selector.matchExpressions ?? []).length === 0;
      if (selectsNothing) {
        ctx.addIssue({ code: 'custom', path: ['selector'], message: 'must not be empty' });
      } else if (!matchesLabelSelector(spec.selector, spec.template.metadata.labels)) {
        ctx.addIssue({
          code: 'custom',
          path: ['template', 'metadata', 'labels'],
          message: 'must match spec.selector',
        });
      }
    }),
});
/** An apps/v1 DaemonSet. */
export type DaemonSet = z.output<typeof daemonSetSchema>;
