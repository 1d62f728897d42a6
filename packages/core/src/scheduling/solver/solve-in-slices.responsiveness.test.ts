import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { deferToEventLoop, timeSlices } from '../../clock/slices.js';
import { solve, solveInSlices } from './solve.js';
import { benchmarkInput } from './testing/index.js';

/** A `setInterval(…, 10)` ticker counting the ticks that fire between `start()` and `stop()`. */
function ticker() {
  let ticks = 0;
  let counting = false;
  const timer = setInterval(() => {
    if (counting) ticks++;
  }, 10);
  return {
    start: () => {
      counting = true;
    },
    stop: () => {
      counting = false;
      clearInterval(timer);
      return ticks;
    },
  };
}

/** Lets every due timer run, so a tick that fires after the solve is not counted in it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

// Real timers and a real 20,000-pod solve (seconds on a shared machine): the property is that
// timers fire DURING the solve, not how fast it is.
describe('solveInSlices on real timers', () => {
  it('lets a 10 ms ticker fire while a 20,000-pod solve runs; the unsliced solve does not', async () => {
    const input = benchmarkInput(20_000);
    await settle();

    const blocked = ticker();
    blocked.start();
    const wholeStart = performance.now();
    const whole = solve(input);
    const wholeMs = performance.now() - wholeStart;
    const ticksDuringWhole = blocked.stop();

    await settle();
    const sliced = ticker();
    sliced.start();
    const slicedStart = performance.now();
    const result = await solveInSlices(
      input,
      timeSlices(() => performance.now(), deferToEventLoop, 20),
    );
    const slicedMs = performance.now() - slicedStart;
    const ticksDuringSliced = sliced.stop();

    // The control: a synchronous solve of this size (well over 10 ms) lets no timer run.
    expect(wholeMs).toBeGreaterThan(100);
    expect(ticksDuringWhole).toBe(0);
    // The property: the ticker kept firing during the sliced solve — at least one tick per 500 ms
    // of solving, a lower bound far below the ~one per 20 ms slice, so load cannot fail it.
    expect(ticksDuringSliced).toBeGreaterThan(0);
    expect(ticksDuringSliced).toBeGreaterThanOrEqual(Math.floor(slicedMs / 500));
    expect(result.newClaims.length).toBe(whole.newClaims.length);
    expect(result.unschedulable.length).toBe(whole.unschedulable.length);
  }, 120_000);
});
