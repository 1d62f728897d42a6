import type { NodeClaim } from '@nodewright/core/apis';
import {
  type GCENodeClass,
  GCENodeClassAnnotations,
  GCENodeClassHashVersion,
  gceNodeClassHash,
} from '../apis/index.js';

/**
 * Why the claim's instance no longer matches its GCENodeClass, or undefined: `NodeClassDrift`
 * when the NodeClass's static fields hash differently from the hash stamped at launch (same
 * hash version only), `ImageDrift` when the instance's image is not among the images the
 * NodeClass resolves now.
 */
export function driftReason(input: {
  readonly nodeClaim: NodeClaim;
  readonly nodeClass: GCENodeClass;
  readonly instanceImage: string | undefined;
}): string | undefined {
  const annotations = input.nodeClaim.metadata.annotations ?? {};
  const stamped = annotations[GCENodeClassAnnotations.Hash];
  if (
    stamped !== undefined &&
    annotations[GCENodeClassAnnotations.HashVersion] === GCENodeClassHashVersion &&
    stamped !== gceNodeClassHash(input.nodeClass)
  ) {
    return 'NodeClassDrift';
  }
  const images = input.nodeClass.status?.images;
  if (input.instanceImage !== undefined && images !== undefined && images.length > 0) {
    if (!images.some((i) => i.sourceImage === input.instanceImage)) return 'ImageDrift';
  }
  return undefined;
}
