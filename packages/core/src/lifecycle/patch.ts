import type { MergePatch } from '../kube/merge-patch.js';

/**
 * A typed object as a merge patch. The schema types (taints, owner references) are JSON but not
 * declared with JSON's index signatures; this is the one place that says so.
 */
export function asPatch(value: object): MergePatch {
  return value as MergePatch;
}
