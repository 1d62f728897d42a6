import type { Clock } from '../../../clock/clock.js';
import type { Timers } from '../../../clock/timers.js';
import type { MemoryClusterPlugin } from '../../../kube/memory/extensions.js';
import type { MemoryCluster } from '../../../kube/memory/memory-cluster.js';
import type { ErrorHandler } from '../../settle/settle.js';
import { DaemonSetController } from './daemonset-controller.js';
import { DeploymentController } from './deployment-controller.js';
import { JobController } from './job-controller.js';
import { ReplicaSetController } from './replicaset-controller.js';

/** What the workload controllers need: time for Job TTLs. */
export interface WorkloadControllersOptions {
  readonly clock: Clock;
  readonly timers: Timers;
  readonly onError?: ErrorHandler;
}

/**
 * kube-controller-manager's workload controllers as one MemoryCluster plug-in: Deployments ->
 * ReplicaSets -> Pods, Jobs and DaemonSets (see each controller for what it simulates).
 * Garbage collection of dependents is the MemoryCluster's own.
 */
export class WorkloadControllers implements MemoryClusterPlugin {
  readonly name = 'workload-controllers';
  readonly #plugins: readonly MemoryClusterPlugin[];

  constructor(options: WorkloadControllersOptions) {
    this.#plugins = [
      new DeploymentController(),
      new ReplicaSetController(),
      new JobController(options),
      new DaemonSetController(),
    ];
  }

  start(cluster: MemoryCluster): () => void {
    const stops = this.#plugins.map((p) => p.start(cluster));
    return () => {
      for (const stop of stops) stop();
    };
  }
}
