import type { Node } from '../apis/kubernetes/node.js';
import type { Pod } from '../apis/kubernetes/pod.js';
import { nodeClaimKind, nodePoolKind } from '../apis/v1/kinds.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import {
  Nodes as UntypedNodes,
  PersistentVolumeClaims as UntypedPersistentVolumeClaims,
  PodDisruptionBudgets as UntypedPodDisruptionBudgets,
  Pods as UntypedPods,
  VolumeAttachments as UntypedVolumeAttachments,
} from '../kube/builtin-types.js';
import type { PodDisruptionBudgetLike } from '../kube/disruption-budget.js';
import type { KubeObject } from '../kube/object.js';
import { type ResourceType, resourceTypeOf } from '../kube/resource-type.js';

/** `karpenter.sh/v1` NodePools, typed. */
export const NodePools: ResourceType<NodePool> = resourceTypeOf<NodePool>(nodePoolKind);
/** `karpenter.sh/v1` NodeClaims, typed. */
export const NodeClaims: ResourceType<NodeClaim> = resourceTypeOf<NodeClaim>(nodeClaimKind);

/** The built-in kinds the lifecycle controllers read, typed with the apis schemas' types. */
export const Nodes = UntypedNodes as ResourceType<Node>;
export const Pods = UntypedPods as ResourceType<Pod>;
export const PodDisruptionBudgets = UntypedPodDisruptionBudgets as ResourceType<PodDisruptionBudgetLike>;
export const PersistentVolumeClaims = UntypedPersistentVolumeClaims as ResourceType<
  KubeObject & { spec?: { volumeName?: string } }
>;

/** A storage.k8s.io/v1 VolumeAttachment: which volume is attached to which node. */
export interface VolumeAttachment extends KubeObject {
  spec?: { attacher?: string; nodeName?: string; source?: { persistentVolumeName?: string } };
  status?: { attached?: boolean };
}
export const VolumeAttachments = UntypedVolumeAttachments as ResourceType<VolumeAttachment>;
