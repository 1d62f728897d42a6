import { Labels, type NodeClaim } from '@nodewright/core/apis';
import {
  type AKSNodeClass,
  AKSNodeClassAnnotations,
  AKSNodeClassHashVersion,
  aksNodeClassHash,
} from '../apis/index.js';
import { imageFor } from '../nodeclass/images.js';

/**
 * Why a NodeClaim no longer matches its AKSNodeClass, or undefined: `NodeClassDrift` when the
 * NodeClass's static hash changed since launch (claims stamped by another hash version are not
 * compared: the hash changed, not the spec), `ImageDrift` when the status now resolves another
 * image (a new node image version or family) for the node's architecture, and
 * `KubernetesVersionDrift` when the status's Kubernetes version is no longer the one the claim
 * was launched with (the cluster was upgraded; claims launched before the version was stamped
 * are not compared).
 */
export function driftReason(nodeClaim: NodeClaim, nodeClass: AKSNodeClass): string | undefined {
  const annotations = nodeClaim.metadata.annotations ?? {};
  if (
    annotations[AKSNodeClassAnnotations.HashVersion] === AKSNodeClassHashVersion &&
    annotations[AKSNodeClassAnnotations.Hash] !== undefined &&
    annotations[AKSNodeClassAnnotations.Hash] !== aksNodeClassHash(nodeClass)
  ) {
    return 'NodeClassDrift';
  }
  const launched = nodeClaim.status?.imageID;
  const arch = nodeClaim.metadata.labels?.[Labels.Arch] ?? 'amd64';
  const wanted = imageFor(nodeClass, arch);
  if (launched !== undefined && launched !== '' && wanted !== undefined && launched !== wanted)
    return 'ImageDrift';
  const launchedVersion = annotations[AKSNodeClassAnnotations.KubernetesVersion];
  const wantedVersion = nodeClass.status?.kubernetesVersion;
  if (launchedVersion !== undefined && wantedVersion !== undefined && launchedVersion !== wantedVersion)
    return 'KubernetesVersionDrift';
  return undefined;
}
