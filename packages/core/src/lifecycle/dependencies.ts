import type { Clock } from '../clock/clock.js';
import type { CloudProvider } from '../cloudprovider/cloud-provider.js';
import type { ClusterPort } from '../kube/port.js';
import type { EventRecorder } from '../operator/runtime/event-recorder.js';
import type { LifecycleMetrics } from './metrics.js';

/** What every lifecycle controller is built from. */
export interface LifecycleDependencies {
  readonly cluster: ClusterPort;
  readonly cloudProvider: CloudProvider;
  readonly clock: Clock;
  readonly events: EventRecorder;
  readonly metrics: LifecycleMetrics;
}
