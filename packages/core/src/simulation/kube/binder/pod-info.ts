import type { PodAffinityTerm } from '../../../apis/kubernetes/affinity.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import { type HostPort, podHostPorts } from '../../../scheduling/pod/host-ports.js';
import { podRequests } from '../../../scheduling/pod/requests.js';
import type { ResourceList } from '../../../scheduling/resources/resource-list.js';

/** What kube-scheduler assumes for a container that requests no cpu (millicores), for scoring. */
export const DEFAULT_MILLI_CPU_REQUEST = 100n;
/** What kube-scheduler assumes for a container that requests no memory (bytes), for scoring. */
export const DEFAULT_MEMORY_REQUEST = 200n * 1024n * 1024n;

/** A pod with what the scheduler derives from it, computed once. */
export interface PodInfo {
  readonly key: string;
  readonly pod: Pod;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Effective requests (init containers, sidecars, overhead, one `pods`). */
  readonly requests: ResourceList;
  /** cpu (millicores) and memory (bytes) with per-container defaults, as scoring counts them. */
  readonly nonZeroMilliCpu: bigint;
  readonly nonZeroMemory: bigint;
  readonly hostPorts: readonly HostPort[];
  readonly requiredAffinity: readonly PodAffinityTerm[];
  readonly requiredAntiAffinity: readonly PodAffinityTerm[];
  /** deletionTimestamp set: still holds resources, no longer counts for topology spread. */
  readonly terminating: boolean;
}

/** `namespace/name`. */
export function podKeyOf(pod: Pick<Pod, 'metadata'>): string {
  return `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
}

type ContainerLike = { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } };

function withDefaults<C extends ContainerLike>(c: C): C {
  const requests = { ...(c.resources?.requests ?? {}) };
  const limits = c.resources?.limits ?? {};
  if (requests.cpu === undefined && limits.cpu === undefined) requests.cpu = `${DEFAULT_MILLI_CPU_REQUEST}m`;
  if (requests.memory === undefined && limits.memory === undefined)
    requests.memory = String(DEFAULT_MEMORY_REQUEST);
  return { ...c, resources: { ...(c.resources ?? {}), requests } };
}

/** Derives a PodInfo. @throws ResourceListError for a request that is not a quantity. */
export function podInfoOf(pod: Pod): PodInfo {
  const spec = pod.spec;
  const requests = podRequests(pod);
  const defaulted = podRequests({
    spec: {
      ...spec,
      containers: spec.containers.map(withDefaults),
      ...(spec.initContainers !== undefined ? { initContainers: spec.initContainers.map(withDefaults) } : {}),
    },
  });
  return {
    key: podKeyOf(pod),
    pod,
    namespace: pod.metadata.namespace ?? 'default',
    labels: pod.metadata.labels ?? {},
    requests,
    nonZeroMilliCpu: defaulted.get('cpu')?.toMilli() ?? 0n,
    nonZeroMemory: defaulted.get('memory')?.toUnits() ?? 0n,
    hostPorts: podHostPorts(pod),
    requiredAffinity: spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [],
    requiredAntiAffinity:
      spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [],
    terminating: pod.metadata.deletionTimestamp !== undefined,
  };
}
