/** The fields of a Deployment that say whether its current spec is available. */
export interface DeploymentLike {
  metadata?: { generation?: number };
  status?: {
    observedGeneration?: number;
    availableReplicas?: number;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}

/** The fields of a Pod that explain why it is not running yet. */
export interface PodLike {
  metadata?: { name?: string };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    containerStatuses?: {
      name: string;
      ready?: boolean;
      restartCount?: number;
      state?: {
        waiting?: { reason?: string; message?: string };
        terminated?: { reason?: string; exitCode?: number };
      };
    }[];
  };
}

/**
 * True once the controller has seen the current spec and reports it Available with at least
 * one replica; a stale status from before the last change does not count.
 */
export function deploymentAvailable(deployment: DeploymentLike): boolean {
  const status = deployment.status;
  if (!status) return false;
  const generation = deployment.metadata?.generation ?? 0;
  if ((status.observedGeneration ?? -1) < generation) return false;
  const available = status.conditions?.find((c) => c.type === 'Available');
  return available?.status === 'True' && (status.availableReplicas ?? 0) >= 1;
}

/**
 * One line per pod saying why it is not ready: unscheduled (with the scheduler's message),
 * pulling or failing to pull its image, crashing. For progress lines and failure messages.
 */
export function describePods(pods: readonly PodLike[]): string {
  if (pods.length === 0) return 'no pods yet';
  return pods
    .map((pod) => {
      const name = pod.metadata?.name ?? '?';
      const phase = pod.status?.phase ?? 'Unknown';
      const scheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled');
      if (scheduled?.status === 'False') {
        return `${name}: not scheduled (${scheduled.reason ?? 'unknown'}${scheduled.message ? `: ${scheduled.message}` : ''})`;
      }
      const details = (pod.status?.containerStatuses ?? []).map((c) => {
        const waiting = c.state?.waiting;
        const terminated = c.state?.terminated;
        const restarts = c.restartCount ? `, ${c.restartCount} restarts` : '';
        if (waiting) {
          return `${c.name} waiting: ${waiting.reason ?? 'unknown'}${waiting.message ? ` (${waiting.message})` : ''}${restarts}`;
        }
        if (terminated) {
          return `${c.name} terminated: ${terminated.reason ?? 'unknown'} exit ${terminated.exitCode ?? '?'}${restarts}`;
        }
        return `${c.name} ${c.ready ? 'ready' : 'running, not ready'}${restarts}`;
      });
      return `${name}: ${phase}${details.length > 0 ? `; ${details.join('; ')}` : ''}`;
    })
    .join(' | ');
}
