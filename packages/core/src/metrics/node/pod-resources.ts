import type { Pod } from '../../apis/kubernetes/pod.js';
import { podRequests } from '../../scheduling/pod/requests.js';
import { Quantity } from '../../scheduling/quantity/quantity.js';
import {
  addResources,
  maxResources,
  parseResourceList,
  type ResourceList,
  ResourceNames,
} from '../../scheduling/resources/resource-list.js';

/**
 * A pod's requests as the node metrics count them: `podRequests` (Kubernetes' PodRequests)
 * without its synthetic one unit of `pods`, which is a scheduling count, not a request.
 */
export function metricPodRequests(pod: Pick<Pod, 'spec'>): ResourceList {
  const out = new Map(podRequests(pod));
  const pods = out.get(ResourceNames.Pods);
  if (pods !== undefined) {
    const rest = pods.sub(Quantity.fromUnits(1));
    if (rest.isZero()) out.delete(ResourceNames.Pods);
    else out.set(ResourceNames.Pods, rest);
  }
  return out;
}

/**
 * A pod's limits as Kubernetes' PodLimits adds them up: the larger of the app containers' sum
 * (sidecar init containers included) and each init container's own limits, then pod-level
 * limits for the resources they set, plus the pod overhead. Resources no container limits are
 * absent (unbounded), not zero.
 */
export function podLimits(pod: Pick<Pod, 'spec'>): ResourceList {
  const spec = pod.spec;
  let app: ResourceList = new Map();
  for (const c of spec.containers) app = addResources(app, parseResourceList(c.resources?.limits));
  let sidecars: ResourceList = new Map();
  let initPeak: ResourceList = new Map();
  for (const c of spec.initContainers ?? []) {
    const own = parseResourceList(c.resources?.limits);
    if (c.restartPolicy === 'Always') {
      app = addResources(app, own);
      sidecars = addResources(sidecars, own);
      initPeak = maxResources(initPeak, sidecars);
    } else {
      initPeak = maxResources(initPeak, addResources(own, sidecars));
    }
  }
  const out = new Map(maxResources(app, initPeak));
  for (const [name, q] of parseResourceList(spec.resources?.limits)) out.set(name, q);
  if (out.size === 0) return out;
  return addResources(out, parseResourceList(spec.overhead));
}
