import type { Cancel, Timers } from './timers.js';

/**
 * `timers` whose callbacks, once due, wait one more turn of the event loop before they run.
 *
 * Node runs due timers before it polls for I/O. After the loop was held (a long solve, a GC
 * pause), a timeout and the response it guards can both be ready at once, and the timeout wins
 * although the answer arrived in time. A lease renewal judged that way is lost for nothing.
 * Re-arming at 0 ms lets the poll phase in between deliver what is waiting; a caller that
 * re-checks its condition in the callback then sees the answer. On ManualTimers the extra turn
 * fires at the same simulated time, after callbacks already due.
 */
export function afterAnIoTurn(timers: Timers): Timers {
  return {
    after(ms: number, fn: () => void): Cancel {
      let inner: Cancel | undefined;
      const outer = timers.after(ms, () => {
        inner = timers.after(0, fn);
      });
      return () => {
        outer();
        inner?.();
      };
    },
  };
}
