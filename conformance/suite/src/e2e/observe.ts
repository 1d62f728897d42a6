import type { KubeObject } from '@nodewright/core/kube';

/** The parts of Pods, Nodes and NodeClaims the suite reads. */
export interface Observed extends KubeObject {
  readonly spec?: {
    readonly nodeName?: string;
    readonly providerID?: string;
    readonly taints?: readonly { readonly key: string; readonly effect: string }[];
  };
  readonly status?: {
    readonly phase?: string;
    readonly nodeName?: string;
    readonly providerID?: string;
    readonly conditions?: readonly {
      readonly type: string;
      readonly status: string;
      readonly reason?: string;
      readonly lastTransitionTime?: string;
    }[];
  };
}

function condition(object: Observed, type: string) {
  return object.status?.conditions?.find((c) => c.type === type);
}

/** Not being deleted. */
export function isLive(object: Observed): boolean {
  return object.metadata.deletionTimestamp === undefined;
}

/** Bound, phase Running and Ready: what a kubelet (here kwok) reports for a started pod. */
export function isRunningPod(pod: Observed): boolean {
  return (
    isLive(pod) &&
    pod.spec?.nodeName !== undefined &&
    pod.status?.phase === 'Running' &&
    condition(pod, 'Ready')?.status === 'True'
  );
}

/** kube-scheduler found no node for it: PodScheduled=False, reason Unschedulable. */
export function isUnschedulablePod(pod: Observed): boolean {
  const scheduled = condition(pod, 'PodScheduled');
  return scheduled?.status === 'False' && scheduled.reason === 'Unschedulable';
}

/** The node carries a taint with this key (any effect). */
export function hasTaint(node: Observed, key: string): boolean {
  return (node.spec?.taints ?? []).some((t) => t.key === key);
}

/** Node condition Ready=True. */
export function isReadyNode(node: Observed): boolean {
  return condition(node, 'Ready')?.status === 'True';
}

/** A custom resource's condition (Established, Ready, ...) is True. */
export function conditionIsTrue(object: Observed, type: string): boolean {
  return condition(object, type)?.status === 'True';
}

/**
 * Nodes being disrupted at one instant: tainted karpenter.sh/disrupted (chosen and being
 * drained) or already deleting. What a disruption budget limits.
 */
export function disruptingNodes(nodes: readonly Observed[]): Observed[] {
  return nodes.filter((n) => !isLive(n) || hasTaint(n, 'karpenter.sh/disrupted'));
}
