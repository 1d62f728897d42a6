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
import { boundSince, podStateLabels, readySince } from './pod-metrics.js';
import { registerPodWaitGauges, type WaitingPod, type WaitingSince } from './pod-wait-gauges.js';

function sameLabels(a: KubeObject, b: KubeObject | undefined): boolean {
  const x = a.metadata.labels ?? {};
  const y = b?.metadata.labels ?? {};
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

/**
 * `metrics.pod`: `karpenter_pods_state` = 1 per pod (labels name, namespace, owner, node, scheduled,
 * nodepool, zone, arch, capacity_type, instance_type, phase, ready, managed; the node's labels
 * are empty while the pod's node is unknown), and how long pods wait, from their creation:
 * - `karpenter_pods_bound_duration_seconds` (histogram), observed once per pod seen unbound,
 *   when it binds (its PodScheduled condition's transition); `karpenter_pods_unbound_time_seconds`
 *   `{name, namespace}` while it waits;
 * - `karpenter_pods_startup_duration_seconds` (summary), observed once per pod seen Pending, when
 *   it is Ready (its Ready condition's transition); `karpenter_pods_unstarted_time_seconds`
 *   `{name, namespace}` while it waits;
 * - the `karpenter_pods_provisioning_*` counterparts of those four, measured from the pass that
 *   placed the pod (ClusterState.schedulingTimes) for pods the provisioner placed, and
 *   `karpenter_pods_provisioning_scheduling_undecided_time_seconds` while a pass has considered
 *   an unbound pod and none has decided about it.
 * Pods already bound or Ready when first seen (say, after a restart) are not observed, so a
 * restart does not report every pod's age. A pod leaves the waiting series when it binds or
 * starts, finishes (Succeeded/Failed, not observed), or is gone; a pod that is gone loses its
 * state series too. So the per-pod series are bounded by the pods that exist now.
 */
export class PodMetricsController implements Controller {
  readonly name = 'metrics.pod';
  readonly watches;
  readonly #state: ClusterState;
  readonly #clock: Clock;
  readonly #metrics: ObjectMetrics;
  readonly #series = new SeriesTracker();
  /** Pods seen unbound, by `namespace/name`: the ones whose binding is still to observe. */
  readonly #unbound = new Map<string, WaitingPod>();
  /** Pods seen Pending and not yet Ready, by `namespace/name`: the ones whose startup is still to observe. */
  readonly #unstarted = new Map<string, WaitingPod>();

  constructor(deps: MetricsDependencies) {
    this.#state = deps.state;
    this.#clock = deps.clock;
    this.#metrics = objectMetrics(deps.registry);
    const times = deps.state.schedulingTimes;
    // From the pass that placed each pod; pods the provisioner never placed are not in them.
    const sincePlaced = function* (pods: Iterable<[string, WaitingPod]>): Iterable<WaitingSince> {
      for (const [id, pod] of pods) {
        const placed = times.of(id)?.scheduledMs;
        if (placed !== undefined) yield { pod, sinceMs: placed };
      }
    };
    const sinceAckedUndecided = function* (pods: Iterable<[string, WaitingPod]>): Iterable<WaitingSince> {
      for (const [id, pod] of pods) {
        const t = times.of(id);
        if (t !== undefined && t.decidedMs === undefined) yield { pod, sinceMs: t.ackedMs };
      }
    };
    registerPodWaitGauges(
      deps.registry,
      {
        unbound: () => this.#unbound.values(),
        unstarted: () => this.#unstarted.values(),
        provisioningUnbound: () => sincePlaced(this.#unbound.entries()),
        provisioningUnstarted: () => sincePlaced(this.#unstarted.entries()),
        undecided: () => sinceAckedUndecided(this.#unbound.entries()),
      },
      () => this.#clock.now(),
    );
    this.watches = [
      watchSelf(Pods),
      // A Node's labels are part of its pods' series (and a Node appearing or going fills or
      // empties them); its status updates are not.
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
      this.#state.schedulingTimes.forget(id);
      this.#series.remove(id);
      this.#unbound.delete(id);
      this.#unstarted.delete(id);
      return undefined;
    }
    const nodeName = pod.spec.nodeName;
    const node = nodeName === undefined || nodeName === '' ? undefined : this.#state.node(nodeName);
    this.#series.replace(id, this.#metrics.podsState, [{ labels: podStateLabels(pod, node), value: 1 }]);

    const created = Date.parse(pod.metadata.creationTimestamp ?? '');
    // Without a creation time there is nothing to measure a wait from.
    if (Number.isNaN(created)) return undefined;
    // The object already kept for the pod when it is the same wait: the gauges key its labels
    // on it, so a pod reconciled at every status write keeps one labels text.
    const kept = this.#unbound.get(id) ?? this.#unstarted.get(id);
    const waiting = kept?.sinceMs === created ? kept : { name: key.name, namespace, sinceMs: created };
    const terminal = isPodTerminal(pod);
    const now = this.#clock.now();

    const placed = this.#state.schedulingTimes.of(id)?.scheduledMs;
    const bound = boundSince(pod, now);
    if (bound === undefined && !terminal) this.#unbound.set(id, waiting);
    else if (this.#unbound.delete(id) && bound !== undefined) {
      this.#metrics.podsBoundDuration.observe(Math.max(0, bound - created) / 1000);
      if (placed !== undefined)
        this.#metrics.podsProvisioningBoundDuration.observe(Math.max(0, bound - placed) / 1000);
    }

    const ready = readySince(pod);
    if (ready === undefined && !terminal) {
      if ((pod.status?.phase ?? 'Pending') === 'Pending' || this.#unstarted.has(id))
        this.#unstarted.set(id, waiting);
    } else if (this.#unstarted.delete(id) && ready !== undefined) {
      // A Ready condition without a parsable time counts as Ready now.
      const at = Number.isFinite(ready) ? ready : now;
      this.#metrics.podsStartupDuration.observe(Math.max(0, at - created) / 1000);
      if (placed !== undefined)
        this.#metrics.podsProvisioningStartupDuration.observe(Math.max(0, at - placed) / 1000);
    }
    // Started or finished: the provisioner's milestones for it are spent (as Karpenter clears them).
    if (ready !== undefined || terminal) this.#state.schedulingTimes.forget(id);
    return undefined;
  }
}
