import type { Clock } from '../../clock/clock.js';
import type { KubeObject, ObjectKey } from '../../kube/object.js';
import { isPodTerminal } from '../../kube/pod.js';
import { Nodes, Pods } from '../../kube/resource-types.js';
import {
  type Controller,
  type ReconcileResult,
  watchMapped,
  watchSelf,
} from '../../operator/runtime/controller.js';
import type { ClusterState } from '../../state/cluster-state.js';
import type { MetricsDependencies } from '../dependencies.js';
import { type ObjectMetrics, objectMetrics } from '../gauges.js';
import { SeriesTracker } from '../series.js';
import { podStateLabels, readySince } from './pod-metrics.js';

function sameLabels(a: KubeObject, b: KubeObject | undefined): boolean {
  const x = a.metadata.labels ?? {};
  const y = b?.metadata.labels ?? {};
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

/**
 * `metrics.pod`: `karpenter_pods_state` = 1 per pod (labels name, namespace, owner, node,
 * nodepool, zone, arch, capacity_type, instance_type, phase; the node's labels are `N/A` while
 * the pod's node is unknown) and `karpenter_pods_startup_duration_seconds`, observed once per
 * pod this controller saw before it was Ready: from its creation to its Ready condition's
 * transition. Pods already Ready when first seen (say, after a restart) are not observed, so a
 * restart does not report every pod's age. A pod that is gone loses its series.
 */
export class PodMetricsController implements Controller {
  readonly name = 'metrics.pod';
  readonly watches;
  readonly #state: ClusterState;
  readonly #clock: Clock;
  readonly #metrics: ObjectMetrics;
  readonly #series = new SeriesTracker();
  /** Pods seen not yet Ready, by `namespace/name`: the ones whose startup is still to observe. */
  readonly #starting = new Set<string>();

  constructor(deps: MetricsDependencies) {
    this.#state = deps.state;
    this.#clock = deps.clock;
    this.#metrics = objectMetrics(deps.registry);
    this.watches = [
      watchSelf(Pods),
      // A Node's labels are part of its pods' series (and a Node appearing or going changes
      // them to and from `N/A`); its status updates are not.
      watchMapped(Nodes, (node, _cache, event) => {
        if (event.type === 'MODIFIED' && sameLabels(node, event.previous)) return [];
        return this.#state.podsOn(node.metadata.name ?? '').map((p) => ({
          name: p.metadata.name,
          namespace: p.metadata.namespace ?? 'default',
        }));
      }),
    ];
  }

  async reconcile(key: ObjectKey): Promise<ReconcileResult | undefined> {
    const namespace = key.namespace ?? 'default';
    const id = `${namespace}/${key.name}`;
    const pod = this.#state.pod(namespace, key.name);
    if (pod === undefined) {
      this.#series.remove(id);
      this.#starting.delete(id);
      return undefined;
    }
    const nodeName = pod.spec.nodeName;
    const node = nodeName === undefined || nodeName === '' ? undefined : this.#state.node(nodeName);
    this.#series.replace(id, this.#metrics.podsState, [{ labels: podStateLabels(pod, node), value: 1 }]);

    const ready = readySince(pod);
    if (ready === undefined) {
      if (!isPodTerminal(pod)) this.#starting.add(id);
    } else if (this.#starting.delete(id)) {
      const created = Date.parse(pod.metadata.creationTimestamp ?? '');
      // A Ready condition without a parsable time counts as Ready now.
      const at = Number.isFinite(ready) ? ready : this.#clock.now();
      if (!Number.isNaN(created)) this.#metrics.podsStartupDuration.observe(Math.max(0, at - created) / 1000);
    }
    return undefined;
  }
}
