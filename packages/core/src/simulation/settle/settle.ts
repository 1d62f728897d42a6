import type { MemoryCluster } from '../../kube/memory/memory-cluster.js';

/**
 * Resolves once the microtask queue is empty: Node runs a nextTick callback queued from a
 * microtask only after the queue has drained, including microtasks queued while draining. All
 * simulated work is promises on in-memory state, so that is as far as any of it can get before
 * a timer. A setImmediate turn waited just as long and cost a pass of the event loop on top:
 * most of the 7 % a 24-hour simulation's profile showed idle.
 */
export function microtasksDrained(): Promise<void> {
  return new Promise((resolve) => process.nextTick(resolve));
}

/**
 * Collects errors raised by simulated components in work nobody awaits (timer callbacks), so
 * a simulation can fail loudly at its next settle point instead of losing them.
 */
export class SimulationErrors {
  #errors: unknown[] = [];

  /** Records one error; pass as a component's `onError`. */
  readonly report = (err: unknown): void => {
    this.#errors.push(err);
  };

  /** Throws what was collected since the last call (an AggregateError for several), then clears. */
  throwCollected(): void {
    const errors = this.#errors;
    this.#errors = [];
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1)
      throw new AggregateError(errors, `${errors.length} errors in simulated components`);
  }
}

/**
 * Waits until all work in flight has finished: everything in a simulation is in memory, so
 * draining the microtask queue lets every promise chain run to its next timer wait; then the
 * cluster's own background work is awaited (and its errors rethrown), and finally the
 * components' errors.
 * Pass `() => settleSimulation(cluster, errors)` as ManualTimers' `settle`.
 *
 * A watch handler that awaits something only a timer resolves would keep the cluster busy for
 * ever; simulated components never do that, and controllers run under simulation must not.
 */
export async function settleSimulation(cluster: MemoryCluster, errors?: SimulationErrors): Promise<void> {
  let revision: string;
  do {
    revision = cluster.resourceVersion;
    await microtasksDrained();
    await cluster.settled();
  } while (cluster.resourceVersion !== revision);
  errors?.throwCollected();
}

/** Where a component sends errors from work nobody awaits. */
export type ErrorHandler = (err: unknown) => void;

/**
 * The default ErrorHandler: rethrows outside any promise chain, so the error surfaces as an
 * uncaught exception (a failed test, a crashed run) rather than vanishing.
 */
export const rethrowUncaught: ErrorHandler = (err) => {
  queueMicrotask(() => {
    throw err;
  });
};
