import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Clock } from '../clock/clock.js';
import type { ClusterState } from '../state/cluster-state.js';

/**
 * What the metrics controllers are built from. They read objects from `state` (fed by the
 * `state.cluster` controller, which must be registered on the same Manager, before them) and
 * write gauges into `registry`.
 */
export interface MetricsDependencies {
  readonly state: ClusterState;
  readonly clock: Clock;
  readonly registry: Registry;
}

/** Logs, once per reconcile, that an object's series were dropped because it does not parse. */
export function logUnreadable(logger: Logger, kind: string, name: string, err: unknown): void {
  logger.warn(
    { [kind]: { name }, reason: err instanceof Error ? err.message : String(err) },
    `dropped the ${kind}'s metrics: its resources do not parse`,
  );
}
