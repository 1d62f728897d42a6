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
 * NodeClass resolves now, `KubernetesVersionDrift` when the instance was launched for another
 * Kubernetes minor version than the cluster's now (both known; patch releases do not drift).
 */
export function driftReason(input: {
  readonly nodeClaim: NodeClaim;
  readonly nodeClass: GCENodeClass;
  readonly instanceImage: string | undefined;
  /** The version recorded on the instance at launch. */
  readonly instanceKubernetesVersion?: string | undefined;
  /** The cluster's version now (the `kubernetesVersion` setting). */
  readonly kubernetesVersion?: string | undefined;
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
  const launched = minorOf(input.instanceKubernetesVersion);
  const now = minorOf(input.kubernetesVersion);
  if (launched !== undefined && now !== undefined && launched !== now) return 'KubernetesVersionDrift';
  return undefined;
}

/** `1.33` of `1.33.2` or `v1.33`; undefined when not a version. */
function minorOf(version: string | undefined): string | undefined {
  return /^v?(\d+\.\d+)(\.\d+)?$/.exec(version ?? '')?.[1];
}
