import type { DaemonSet } from '../../apis/kubernetes/daemon-set.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { type HostPort, podHostPorts } from '../pod/host-ports.js';
import { nodeSelectorTermRequirements, requiredNodeAffinityTerms } from '../pod/node-requirements.js';
import { podRequests } from '../pod/requests.js';
import { AllowUndefinedWellKnownLabels, Requirements } from '../requirements/requirements.js';
import type { ResourceList } from '../resources/resource-list.js';
import { type TaintLike, TolerateAllPreferNoSchedule, untoleratedTaint } from '../taints/tolerations.js';

/** A DaemonSet reduced to what decides where its pods run and what they take. */
export interface DaemonPod {
  readonly name: string;
  readonly pod: Pod;
  readonly requests: ResourceList;
  readonly hostPorts: readonly HostPort[];
  /** nodeSelector AND each required node affinity term in turn (ORed alternatives). */
  readonly alternatives: readonly Requirements[];
}

/** The pod a DaemonSet would run, as the solver considers it. */
export function daemonPod(ds: DaemonSet): DaemonPod {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...ds.spec.template.metadata, name: ds.metadata.name, namespace: ds.metadata.namespace },
    spec: ds.spec.template.spec,
  } as Pod;
  const terms = requiredNodeAffinityTerms(pod);
  const selector = Requirements.fromLabels(pod.spec.nodeSelector);
  const alternatives =
    terms === undefined
      ? [selector]
      : terms.map((t) => selector.copy().addAll(nodeSelectorTermRequirements(t)));
  return {
    name: `${ds.metadata.namespace ?? 'default'}/${ds.metadata.name}`,
    pod,
    requests: podRequests(pod),
    hostPorts: podHostPorts(pod),
    alternatives,
  };
}

/**
 * Whether the DaemonSet's pod would run on a node with these taints and requirements, as Karpenter
 * decides DaemonSet overhead: it tolerates the taints (PreferNoSchedule always, as daemons ignore
 * it) and one of its node affinity alternatives is compatible with the requirements. Startup
 * taints are not passed in: they go away, and the daemon then lands.
 */
export function daemonRunsOn(
  daemon: DaemonPod,
  taints: readonly TaintLike[],
  requirements: Requirements,
  allowUndefined: boolean,
): boolean {
  return daemonTolerates(daemon, taints) && daemonSelects(daemon, requirements, allowUndefined);
}

/** Whether the DaemonSet's pod tolerates the taints (PreferNoSchedule always: daemons ignore it). */
export function daemonTolerates(daemon: DaemonPod, taints: readonly TaintLike[]): boolean {
  const tolerations = [...(daemon.pod.spec.tolerations ?? []), TolerateAllPreferNoSchedule];
  return untoleratedTaint(taints, tolerations) === undefined;
}

/** Whether one of the DaemonSet's node affinity alternatives is compatible with the requirements. */
export function daemonSelects(
  daemon: DaemonPod,
  requirements: Requirements,
  allowUndefined: boolean,
): boolean {
  const options = allowUndefined ? AllowUndefinedWellKnownLabels : undefined;
  return daemon.alternatives.some((alt) => requirements.isCompatible(alt, options));
}
