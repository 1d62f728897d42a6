/**
 * kube-scheduler's per-pod backoff defaults (KubeSchedulerConfiguration v1
 * `podInitialBackoffSeconds` 1, `podMaxBackoffSeconds` 10): the binder's, and the scenario
 * format's when `scheduler.backoff` leaves them out. A module of their own so the scenario schema
 * can read them without loading the binder.
 */
export const DefaultPodInitialBackoffMs = 1_000;
export const DefaultPodMaxBackoffMs = 10_000;
