import { kubeletLabels, type NodeClaim } from '@nodewright/core/apis';
import type { GCENodeClass } from '../apis/index.js';

/** The metadata key holding the boot image the instance was launched from. */
export const ImageMetadataKey = 'nodewright-image';
/** The metadata key holding the Kubernetes version the node was launched for, when known. */
export const KubernetesVersionMetadataKey = 'nodewright-kubernetes-version';

type Taint = { readonly key: string; readonly value?: string | undefined; readonly effect: string };

const taintList = (taints: readonly Taint[] | undefined) =>
  (taints ?? []).map((t) => `${t.key}${t.value === undefined ? '' : `=${t.value}`}:${t.effect}`).join(',');

/**
 * The instance metadata the node's bootstrap reads (the keys the GCENodeClass schema reserves):
 * the cluster name, the kubelet's `--node-labels` (those NodeRestriction lets a kubelet set),
 * `--register-with-taints` (taints then startup taints), and the kubelet configuration as JSON;
 * the NodeClass's own metadata first, which cannot use those keys.
 */
export function instanceMetadata(input: {
  readonly clusterName: string;
  readonly nodeClaim: NodeClaim;
  readonly nodeClass: GCENodeClass;
  readonly labels: Readonly<Record<string, string>>;
  /** The boot image, recorded so image drift can be told from the instance. */
  readonly image: string;
  /** The cluster's Kubernetes version (the `kubernetesVersion` setting), recorded for drift. */
  readonly kubernetesVersion?: string | undefined;
}): { key: string; value: string }[] {
  const { nodeClaim, nodeClass } = input;
  const labels = kubeletLabels(input.labels);
  const items: Record<string, string> = {
    ...nodeClass.spec.metadata,
    'cluster-name': input.clusterName,
    'kube-labels': Object.entries(labels)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join(','),
    'kube-taints': taintList(nodeClaim.spec.taints),
    'kube-startup-taints': taintList(nodeClaim.spec.startupTaints),
    'kubelet-config': JSON.stringify(nodeClass.spec.kubeletConfiguration ?? {}),
    [ImageMetadataKey]: input.image,
    ...(input.kubernetesVersion === undefined
      ? {}
      : { [KubernetesVersionMetadataKey]: input.kubernetesVersion }),
  };
  return Object.entries(items).map(([key, value]) => ({ key, value }));
}
