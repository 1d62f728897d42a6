import { DefaultSchedulerName, type Pod } from '../apis/kubernetes/pod.js';
import { isPodTerminal, ownerName } from '../kube/pod.js';

/** What a pod means to one provisioning decision. */
export type PodRole =
  | { readonly role: 'pending' }
  | { readonly role: 'bound'; readonly nodeName: string }
  | { readonly role: 'ignored'; readonly reason: string };

/** How strictly pending pods are chosen. */
export interface PodRoleOptions {
  /**
   * Only pods kube-scheduler has marked `PodScheduled=False` with reason `Unschedulable` are
   * pending (the controller's rule: a pod that may still fit an existing node is left to
   * kube-scheduler). Off for manifests, where pods rarely carry a status. Default false.
   */
  readonly requireUnschedulable?: boolean;
}

/** `namespace/name`, the CLI contract's pod id and the key nominations are kept under. */
export function podId(pod: Pick<Pod, 'metadata'>): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
}

/** Whether kube-scheduler tried the pod and found no node for it (PodScheduled=False, Unschedulable). */
export function isMarkedUnschedulable(pod: Pick<Pod, 'status'>): boolean {
  return (pod.status?.conditions ?? []).some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );
}

/**
 * Sorts a pod the way the provisioner does. Terminal pods hold no resources. A pod with
 * `spec.nodeName` runs on that node. Of the rest, the provisioner leaves alone pods being
 * deleted, pods a DaemonSet or a Node owns (DaemonSet pods are per-node overhead, counted on
 * every new node; Node-owned ones are static pods), pods another scheduler places and — with
 * `requireUnschedulable` — pods kube-scheduler has not given up on; the others are pending and
 * must be placed.
 */
export function podRole(pod: Pod, options: PodRoleOptions = {}): PodRole {
  if (isPodTerminal(pod)) {
    return { role: 'ignored', reason: `phase ${pod.status?.phase}: a finished pod holds no resources` };
  }
  if (pod.spec.nodeName !== undefined && pod.spec.nodeName !== '') {
    return { role: 'bound', nodeName: pod.spec.nodeName };
  }
  if (pod.metadata.deletionTimestamp !== undefined) {
    return { role: 'ignored', reason: 'being deleted: it will not be scheduled' };
  }
  const daemonSet = ownerName(pod, 'DaemonSet');
  if (daemonSet !== undefined) {
    return {
      role: 'ignored',
      reason: `owned by DaemonSet ${pod.metadata.namespace}/${daemonSet}: its requests count as DaemonSet overhead on new nodes`,
    };
  }
  const node = ownerName(pod, 'Node');
  if (node !== undefined) {
    return { role: 'ignored', reason: `a static pod of Node ${node}: it runs only there` };
  }
  const scheduler = pod.spec.schedulerName ?? DefaultSchedulerName;
  if (scheduler !== DefaultSchedulerName) {
    return {
      role: 'ignored',
      reason: `schedulerName ${scheduler}: only pods of ${DefaultSchedulerName} are provisioned for`,
    };
  }
  if (options.requireUnschedulable === true && !isMarkedUnschedulable(pod)) {
    return {
      role: 'ignored',
      reason: 'not marked Unschedulable by kube-scheduler yet: it may still fit an existing node',
    };
  }
  return { role: 'pending' };
}
