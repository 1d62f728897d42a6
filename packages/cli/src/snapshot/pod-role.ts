import { DefaultSchedulerName, type Pod } from '@nodewright/core/apis';

/** What a pod means to one provisioning decision. */
export type PodRole =
  | { readonly role: 'pending' }
  | { readonly role: 'bound'; readonly nodeName: string }
  | { readonly role: 'ignored'; readonly reason: string };

/** `namespace/name`, the CLI contract's pod id. */
export function podId(pod: Pod): string {
  return `${pod.metadata.namespace}/${pod.metadata.name}`;
}

/**
 * Sorts a pod the way the provisioner does. Terminal pods hold no resources. A pod with
 * `spec.nodeName` runs on that node. Of the rest, the provisioner leaves alone pods being
 * deleted, pods a DaemonSet or a Node owns (DaemonSet pods are per-node overhead, counted on
 * every new node; Node-owned ones are static pods) and pods another scheduler places; the
 * others are pending and must be placed.
 */
export function podRole(pod: Pod): PodRole {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') {
    return { role: 'ignored', reason: `phase ${phase}: a finished pod holds no resources` };
  }
  if (pod.spec.nodeName !== undefined && pod.spec.nodeName !== '') {
    return { role: 'bound', nodeName: pod.spec.nodeName };
  }
  if (pod.metadata.deletionTimestamp !== undefined) {
    return { role: 'ignored', reason: 'being deleted: it will not be scheduled' };
  }
  for (const owner of pod.metadata.ownerReferences ?? []) {
    if (owner.kind === 'DaemonSet') {
      return {
        role: 'ignored',
        reason: `owned by DaemonSet ${pod.metadata.namespace}/${owner.name}: its requests count as DaemonSet overhead on new nodes`,
      };
    }
    if (owner.kind === 'Node') {
      return { role: 'ignored', reason: `a static pod of Node ${owner.name}: it runs only there` };
    }
  }
  if (pod.spec.schedulerName !== DefaultSchedulerName) {
    return {
      role: 'ignored',
      reason: `schedulerName ${pod.spec.schedulerName}: only pods of ${DefaultSchedulerName} are provisioned for`,
    };
  }
  return { role: 'pending' };
}
