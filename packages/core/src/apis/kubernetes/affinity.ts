import { z } from 'zod';
import { labelSelectorSchema } from './label-selector.js';
import { qualifiedNameSchema } from './names.js';
import { nodeSelectorSchema, nodeSelectorTermSchema } from './node-selector.js';
import { optional } from './optional.js';

const weightSchema = z
  .number()
  .int({ error: 'must be a whole number from 1 to 100' })
  .min(1, { error: 'must be at least 1' })
  .max(100, { error: 'must be at most 100' });

/** A preferred node-affinity term: a node selector term and its weight (1-100). */
export const preferredSchedulingTermSchema = z.looseObject({
  weight: weightSchema,
  preference: nodeSelectorTermSchema,
});
export type PreferredSchedulingTerm = z.output<typeof preferredSchedulingTermSchema>;

export const nodeAffinitySchema = z.looseObject({
  requiredDuringSchedulingIgnoredDuringExecution: optional(nodeSelectorSchema),
  preferredDuringSchedulingIgnoredDuringExecution: optional(z.array(preferredSchedulingTermSchema)),
});
export type NodeAffinity = z.output<typeof nodeAffinitySchema>;

/**
 * A pod (anti-)affinity term: the pods selected by `labelSelector` in `namespaces` /
 * `namespaceSelector` (the pod's own namespace when both are absent), counted per
 * `topologyKey` domain. `matchLabelKeys` / `mismatchLabelKeys` add `key in (pod's value)` /
 * `key notin (pod's value)` to the selector; they need a selector and must not overlap.
 */
export const podAffinityTermSchema = z
  .looseObject({
    labelSelector: optional(labelSelectorSchema),
    namespaces: optional(z.array(z.string())),
    namespaceSelector: optional(labelSelectorSchema),
    topologyKey: qualifiedNameSchema,
    matchLabelKeys: optional(z.array(qualifiedNameSchema)),
    mismatchLabelKeys: optional(z.array(qualifiedNameSchema)),
  })
  .superRefine((term, ctx) => {
    const match = term.matchLabelKeys ?? [];
    const mismatch = term.mismatchLabelKeys ?? [];
    if ((match.length > 0 || mismatch.length > 0) && term.labelSelector === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [match.length > 0 ? 'matchLabelKeys' : 'mismatchLabelKeys'],
        message: 'must not be set when labelSelector is not set',
      });
    }
    for (const [i, key] of mismatch.entries()) {
      if (match.includes(key)) {
        ctx.addIssue({
          code: 'custom',
          path: ['mismatchLabelKeys', i],
          message: `${JSON.stringify(key)} is also in matchLabelKeys; a key may be in only one of them`,
        });
      }
    }
    const selectorKeys = new Set([
      ...Object.keys(term.labelSelector?.matchLabels ?? {}),
      ...(term.labelSelector?.matchExpressions ?? []).map((e) => e.key),
    ]);
    for (const [field, keys] of [
      ['matchLabelKeys', match],
      ['mismatchLabelKeys', mismatch],
    ] as const) {
      for (const [i, key] of keys.entries()) {
        if (selectorKeys.has(key)) {
          ctx.addIssue({
            code: 'custom',
            path: [field, i],
            message: `${JSON.stringify(key)} is already in labelSelector; it must not be in ${field} too`,
          });
        }
      }
    }
  });
export type PodAffinityTerm = z.output<typeof podAffinityTermSchema>;

export const weightedPodAffinityTermSchema = z.looseObject({
  weight: weightSchema,
  podAffinityTerm: podAffinityTermSchema,
});
export type WeightedPodAffinityTerm = z.output<typeof weightedPodAffinityTermSchema>;

const podAffinityFields = {
  requiredDuringSchedulingIgnoredDuringExecution: optional(z.array(podAffinityTermSchema)),
  preferredDuringSchedulingIgnoredDuringExecution: optional(z.array(weightedPodAffinityTermSchema)),
};

export const podAffinitySchema = z.looseObject(podAffinityFields);
export type PodAffinity = z.output<typeof podAffinitySchema>;

export const podAntiAffinitySchema = z.looseObject(podAffinityFields);
export type PodAntiAffinity = z.output<typeof podAntiAffinitySchema>;

export const affinitySchema = z.looseObject({
  nodeAffinity: optional(nodeAffinitySchema),
  podAffinity: optional(podAffinitySchema),
  podAntiAffinity: optional(podAntiAffinitySchema),
});
export type Affinity = z.output<typeof affinitySchema>;
