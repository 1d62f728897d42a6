/**
 * Cuts long synchronous work into slices so the event loop gets a turn between them: the work
 * asks `due()` at points where it may stop (cheap; asked often) and, when it is, awaits
 * `yield()` before going on. One Slices per piece of work: it remembers when its slice began.
 */
export interface Slices {
  /** Whether the current slice is used up. */
  due(): boolean;
  /** Gives the event loop a turn, then starts a new slice. */
  yield(): Promise<void>;
}

/** Lets the event loop run pending I/O and timers, then resolves. */
export type Defer = () => Promise<void>;

/**
 * setImmediate: runs after the loop's poll phase, so socket reads (a Lease renewal's response,
 * a probe) and due timers are served before the work goes on.
 */
export const deferToEventLoop: Defer = () => new Promise((resolve) => setImmediate(resolve));

/** The longest slice by default: well under the ~50 ms a probe or a renewal should wait. */
export const DefaultSliceMs = 20;

/**
 * Slices of `sliceMs` measured on `elapsedMs` (monotonic milliseconds). On a fake clock that
 * does not move during the work, a slice never ends, so a simulation never yields and runs at
 * full speed; neither does a slice of `Infinity`, which never reads the clock.
 */
export function timeSlices(elapsedMs: () => number, defer: Defer, sliceMs = DefaultSliceMs): Slices {
  // Endless slices read no clock: a caller whose clock readings are counted (a deadline on the
  // same clock) sees only its own.
  if (sliceMs === Number.POSITIVE_INFINITY) return { due: () => false, yield: defer };
  let start = elapsedMs();
  return {
    due: () => elapsedMs() - start >= sliceMs,
    yield: async () => {
      await defer();
      start = elapsedMs();
    },
  };
}

/** Whether the current slice is used up; what stoppable work asks at each point it may stop. */
export type Due = () => boolean;

/**
 * Stoppable work written once for both kinds of caller: a generator that yields (no value) only
 * at a point where it may stop and only when the `Due` it was built with says so, and returns
 * its result. Nothing it reads may change while it is stopped, so where it stops never changes
 * what it returns. `finishNow` runs it in one stretch; `finishInSlices` gives the event loop a
 * turn at each yield.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs stoppable work to the end without stopping. */
export function finishNow<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/** Runs stoppable work to the end, giving the event loop a turn at each of its yields. */
export async function finishInSlices<T>(steps: Steps<T>, slices: Slices): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    await slices.yield();
  }
}
