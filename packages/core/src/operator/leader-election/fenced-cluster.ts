import type { ClusterPort } from '../../kube/port.js';

/** A write refused because this replica may no longer lead: a new leader may be acting. */
export class FencedWriteError extends Error {
  override readonly name = 'FencedWriteError';
}

/** The ClusterPort methods that change the cluster. */
const Writes: ReadonlySet<string | symbol> = new Set([
  'create',
  'update',
  'updateStatus',
  'patch',
  'patchStatus',
  'apply',
  'applyStatus',
  'delete',
  'evict',
  'createEvent',
]);

/**
 * `cluster` with every write first asking `refusal` (e.g. LeaderElector.writeRefusal): when it
 * names a reason, the write is rejected with a FencedWriteError and never sent. Reads and
 * watches pass through. Controllers get this port, the elector the bare one, so a replica that
 * lost its Lease stops writing at once, even from reconciles still in flight, before a standby
 * can start.
 */
export function fencedCluster(cluster: ClusterPort, refusal: () => string | undefined): ClusterPort {
  return new Proxy(cluster, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      if (!Writes.has(prop)) return value.bind(target);
      return (...args: unknown[]) => {
        const reason = refusal();
        if (reason !== undefined)
          return Promise.reject(new FencedWriteError(`write refused (${String(prop)}): ${reason}`));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
