import type { Pod } from '../../apis/kubernetes/pod.js';
import { Labels } from '../../apis/labels.js';
import { ownerName } from '../../kube/pod.js';
import { type ResourceList, ResourceNames } from '../resources/resource-list.js';

/** `namespace/name`, the way pods are named in reasons and output. */
export function podKey(pod: Pick<Pod, 'metadata'>): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
}

/** Creation time in ms since the epoch; a pod without one sorts first. */
export function podCreationMillis(pod: Pick<Pod, 'metadata'>): number {
  const t = pod.metadata.creationTimestamp;
  if (t === undefined) return Number.NEGATIVE_INFINITY;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/** The DaemonSet owning the pod (by name), if any. */
export function daemonSetOwner(pod: Pick<Pod, 'metadata'>): string | undefined {
  return ownerName(pod, 'DaemonSet');
}

function cmpQuantity(a: ResourceList, b: ResourceList, name: string): number {
  const x = a.get(name)?.nanos ?? 0n;
  const y = b.get(name)?.nanos ?? 0n;
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Karpenter's queue order: cpu descending, memory descending, creation time, uid; then
 * namespace/name so pods without uids still order the same way on every run.
 */
export function comparePodsForScheduling(
  a: { readonly pod: Pod; readonly requests: ResourceList; readonly created: number },
  b: { readonly pod: Pod; readonly requests: ResourceList; readonly created: number },
): number {
  // Pods of one class share their requests object: thousands of replicas compare no BigInts.
  if (a.requests !== b.requests) {
    const cpu = cmpQuantity(b.requests, a.requests, ResourceNames.CPU);
    if (cpu !== 0) return cpu;
    const mem = cmpQuantity(b.requests, a.requests, ResourceNames.Memory);
    if (mem !== 0) return mem;
  }
  if (a.created !== b.created) return a.created < b.created ? -1 : 1;
  const au = a.pod.metadata.uid ?? '';
  const bu = b.pod.metadata.uid ?? '';
  if (au !== bu) return au < bu ? -1 : 1;
  const ak = podKey(a.pod);
  const bk = podKey(b.pod);
  return ak < bk ? -1 : ak > bk ? 1 : 0;
}

/** The hostname a node answers to for topology: its hostname label, else its name. */
export function hostnameOf(name: string, labels: Readonly<Record<string, string>> | undefined): string {
  return labels?.[Labels.Hostname] ?? name;
}
