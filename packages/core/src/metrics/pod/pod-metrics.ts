import type { Node } from '../../apis/kubernetes/node.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { PodLabel } from '../gauges.js';
import { podNodeLabels } from '../labels.js';

/**
 * The `owner` label: the self link of the pod's first owner, as Karpenter builds it
 * (`/apis/<apiVersion>/namespaces/<ns>/<kind>s/<name>`), or empty for a pod without owners.
 */
export function ownerSelfLink(pod: Pick<Pod, 'metadata'>): string {
  const owner = pod.metadata.ownerReferences?.[0];
  if (owner === undefined) return '';
  const namespace = pod.metadata.namespace ?? 'default';
  return `/apis/${owner.apiVersion}/namespaces/${namespace}/${owner.kind.toLowerCase()}s/${owner.name}`;
}

/**
 * The labels of a pod's `karpenter_pods_state` series; `node` is the pod's node, if bound and
 * known. `scheduled` says whether the pod has a node name, known or not; `ready` whether its
 * Ready condition is True; `managed` whether its node belongs to a NodePool. Pure.
 */
export function podStateLabels(
  pod: Pick<Pod, 'metadata' | 'spec' | 'status'>,
  node: Pick<Node, 'metadata'> | undefined,
): Record<PodLabel, string> {
  return {
    name: pod.metadata.name,
    namespace: pod.metadata.namespace ?? 'default',
    owner: ownerSelfLink(pod),
    node: pod.spec.nodeName ?? '',
    scheduled: pod.spec.nodeName === undefined || pod.spec.nodeName === '' ? 'false' : 'true',
    ...podNodeLabels(node),
    phase: pod.status?.phase ?? '',
    ready: String(pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true),
  };
}

/** When the pod became Ready (ms), if its Ready condition is True; undefined otherwise. */
export function readySince(pod: Pick<Pod, 'status'>): number | undefined {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') return undefined;
  const at = ready.lastTransitionTime === undefined ? Number.NaN : Date.parse(ready.lastTransitionTime);
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : at;
}

/**
 * When the pod was bound (ms), if it is: its PodScheduled condition's transition when True, else
 * `now` for a pod that has a node but no such condition. Undefined while it waits for a node.
 */
export function boundSince(pod: Pick<Pod, 'spec' | 'status'>, now: number): number | undefined {
  const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'True') {
    const at =
      scheduled.lastTransitionTime === undefined ? Number.NaN : Date.parse(scheduled.lastTransitionTime);
    return Number.isNaN(at) ? now : at;
  }
  return pod.spec.nodeName === undefined || pod.spec.nodeName === '' ? undefined : now;
}
