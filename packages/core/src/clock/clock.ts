/**
 * The time source every controller, cache and decision reads. Injected so tests and
 * simulations step time exactly instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** Wall-clock time. */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
}

/** A clock that moves only when told to; for tests and the simulator. */
export class FakeClock implements Clock {
  #now: number;

  constructor(start: number | Date = 0) {
    this.#now = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.#now;
  }

  /** Moves time forward; moving backwards is a bug in the caller. */
  step(ms: number): void {
    if (ms < 0) throw new Error(`FakeClock cannot step backwards (${ms} ms)`);
    this.#now += ms;
  }

  set(to: number | Date): void {
    const t = typeof to === 'number' ? to : to.getTime();
    if (t < this.#now) throw new Error('FakeClock cannot move backwards');
    this.#now = t;
  }
}
