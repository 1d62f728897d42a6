import type { Registry } from 'prom-client';
import { scrapedGauge } from '../../operator/runtime/metrics.js';
import { MetricNames } from '../names.js';

/** A pod still waiting for something (a node, or to start), and since when (ms; its creation unless said). */
export interface WaitingPod {
  readonly name: string;
  readonly namespace: string;
  readonly sinceMs: number;
}

/**
 * A waiting pod with another instant to measure its wait from. `pod` is the reader's kept object
 * (the one `unbound` or `unstarted` hands out), not a copy: the gauges key the pod's labels on it.
 */
export interface WaitingSince {
  readonly pod: WaitingPod;
  readonly sinceMs: number;
}

/**
 * The pods waiting now, read at scrape time. Each reader hands out the same `WaitingPod` object
 * for a pod from one scrape to the next for as long as it waits, so its series' labels are
 * written once.
 */
export interface WaitingPods {
  /** Pods not yet bound to a node. */
  readonly unbound: () => Iterable<WaitingPod>;
  /** Pods seen Pending and not yet Ready. */
  readonly unstarted: () => Iterable<WaitingPod>;
  /** Unbound pods the provisioner placed, since the pass that placed them. */
  readonly provisioningUnbound: () => Iterable<WaitingSince>;
  /** Unstarted pods the provisioner placed, since the pass that placed them. */
  readonly provisioningUnstarted: () => Iterable<WaitingSince>;
  /** Unbound pods a provisioning pass considered and has not decided about, since that pass. */
  readonly undecided: () => Iterable<WaitingSince>;
}

/**
 * Registers `karpenter_pods_unbound_time_seconds` and `karpenter_pods_unstarted_time_seconds`
 * (`{name, namespace}`: seconds since the pod's creation), their `karpenter_pods_provisioning_*`
 * counterparts (since the pass that placed the pod) and
 * `karpenter_pods_provisioning_scheduling_undecided_time_seconds`, computed from `waiting` when scraped.
 * Karpenter sets them on a 30 s requeue of every waiting pod; computing them at scrape time
 * costs nothing between scrapes and is never stale. A pod's series exists only while it waits, so
 * the series count is bounded by the pods waiting now.
 */
export function registerPodWaitGauges(registry: Registry, waiting: WaitingPods, now: () => number): void {
  // One labels object per waiting pod for as long as it waits, so /metrics writes its label text
  // once (MetricsText keeps it per labels object), not on every scrape.
  const labels = new WeakMap<WaitingPod, Readonly<Record<'name' | 'namespace', string>>>();
  const labelsOf = (pod: WaitingPod) => {
    let l = labels.get(pod);
    if (l === undefined) {
      l = { name: pod.name, namespace: pod.namespace };
      labels.set(pod, l);
    }
    return l;
  };
  // Both carry the instant the wait is measured from; a WaitingSince names its kept pod.
  const gauge = (name: string, help: string, read: () => Iterable<WaitingPod | WaitingSince>) =>
    scrapedGauge(registry, { name, help, labelNames: ['name', 'namespace'] }, function* () {
      const at = now();
      for (const w of read()) yield [labelsOf('pod' in w ? w.pod : w), Math.max(0, at - w.sinceMs) / 1000];
    });
  gauge(MetricNames.PodsUnboundTime, 'The time from pod creation until the pod is bound.', waiting.unbound);
  gauge(
    MetricNames.PodsUnstartedTime,
    'The time from pod creation until the pod is running.',
    waiting.unstarted,
  );
  gauge(
    MetricNames.PodsProvisioningUnboundTime,
    'The time from when nodewright first thinks the pod can schedule until it binds. Note: this calculated from a point in memory, not by the pod creation timestamp.',
    waiting.provisioningUnbound,
  );
  gauge(
    MetricNames.PodsProvisioningUnstartedTime,
    'The time from when nodewright first thinks the pod can schedule until the pod is running. Note: this calculated from a point in memory, not by the pod creation timestamp.',
    waiting.provisioningUnstarted,
  );
  gauge(
    MetricNames.PodsProvisioningSchedulingUndecidedTime,
    'The time from when nodewright has seen a pod without making a scheduling decision for the pod. Note: this calculated from a point in memory, not by the pod creation timestamp.',
    waiting.undecided,
  );
}
