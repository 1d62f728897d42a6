import { type Slices, timeSlices } from '../clock/slices.js';

/** Slices for tests of stoppable work, with what they counted. */
export interface SteppingSlices {
  readonly slices: Slices;
  /** Turns given to the event loop (yields) so far. */
  turns(): number;
  /** Clock readings so far (one per `due()`, one per slice start). */
  reads(): number;
}

/**
 * `timeSlices` on a clock that moves `stepMs` at every reading, with a defer that only counts:
 * the work's stopping points decide when it stops, and no real time passes.
 */
export function steppingSlices(stepMs: number, sliceMs: number): SteppingSlices {
  let now = 0;
  let turns = 0;
  let reads = 0;
  const slices = timeSlices(
    () => {
      reads++;
      now += stepMs;
      return now;
    },
    async () => {
      turns++;
    },
    sliceMs,
  );
  return { slices, turns: () => turns, reads: () => reads };
}
