import type { LifecycleDependencies } from '../lifecycle/dependencies.js';
import { lifecycleMetrics } from '../lifecycle/metrics.js';
import type { ControllerEnv } from './controller-env.js';

/** The lifecycle controllers' dependencies on a ControllerEnv (its cluster, fake cloud, clock, events, registry). */
export function lifecycleDependencies(env: ControllerEnv): LifecycleDependencies {
  return {
    cluster: env.cluster,
    cloudProvider: env.cloudProvider,
    clock: env.clock,
    events: env.events,
    metrics: lifecycleMetrics(env.registry),
  };
}
