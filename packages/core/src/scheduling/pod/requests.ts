import type { Container, InitContainer } from '../../apis/kubernetes/container.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { Quantity } from '../quantity/quantity.js';
import {
  addResources,
  maxResources,
  parseResourceList,
  type ResourceList,
  ResourceNames,
} from '../resources/resource-list.js';

/** Resources a pod may set at pod level (Kubernetes' IsSupportedPodLevelResource). */
const PodLevelResources: ReadonlySet<string> = new Set([ResourceNames.CPU, ResourceNames.Memory]);

const ONE_POD: ResourceList = new Map([[ResourceNames.Pods, Quantity.fromUnits(1)]]);

/**
 * A container's effective requests: its requests, plus its limits for resources it limits without
 * requesting (the API server defaults such requests to the limit).
 */
export function containerRequests(container: Pick<Container | InitContainer, 'resources'>): ResourceList {
  const requests = new Map(parseResourceList(container.resources?.requests));
  for (const [name, limit] of parseResourceList(container.resources?.limits)) {
    if (!requests.has(name)) requests.set(name, limit);
  }
  return requests;
}

function isSidecar(container: InitContainer): boolean {
  return container.restartPolicy === 'Always';
}

/**
 * What a pod asks of a node, as Kubernetes' PodRequests computes it and Karpenter counts it:
 * the larger of the app containers' sum and the init phase's peak, where sidecar init containers
 * (restartPolicy Always) keep running, so they add to the app side and to every later init
 * container's peak; pod-level requests (or limits) replace the aggregate for cpu and memory;
 * the pod overhead is added; and one unit of `pods`.
 *
 * @throws ResourceListError when a quantity does not parse.
 */
export function podRequests(pod: Pick<Pod, 'spec'>): ResourceList {
  const spec = pod.spec;
  if (
    spec.containers.length === 1 &&
    spec.initContainers === undefined &&
    spec.overhead === undefined &&
    spec.resources === undefined
  ) {
    // The common shape, without the intermediate lists.
    const out = new Map(containerRequests(spec.containers[0]!));
    const pods = out.get(ResourceNames.Pods);
    out.set(
      ResourceNames.Pods,
      pods === undefined ? ONE_POD.get(ResourceNames.Pods)! : pods.add(ONE_POD.get(ResourceNames.Pods)!),
    );
    return out;
  }
  let app: ResourceList = new Map();
  for (const c of spec.containers) app = addResources(app, containerRequests(c));
  let sidecars: ResourceList = new Map();
  let initPeak: ResourceList = new Map();
  for (const c of spec.initContainers ?? []) {
    const own = containerRequests(c);
    if (isSidecar(c)) {
      app = addResources(app, own);
      sidecars = addResources(sidecars, own);
      initPeak = maxResources(initPeak, sidecars);
    } else {
      initPeak = maxResources(initPeak, addResources(own, sidecars));
    }
  }
  const out = new Map(maxResources(app, initPeak));
  const podLevel = spec.resources;
  if (podLevel !== undefined) {
    const requests = parseResourceList(podLevel.requests);
    const limits = parseResourceList(podLevel.limits);
    for (const name of PodLevelResources) {
      const q = requests.get(name) ?? limits.get(name);
      if (q !== undefined) out.set(name, q);
    }
  }
  return addResources(out, parseResourceList(spec.overhead), ONE_POD);
}
