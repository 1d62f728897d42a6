/** How a call failed and how long it took to fail. */
export interface TimedFailure {
  readonly err: Error;
  readonly ms: number;
}

/**
 * Awaits a call expected to fail and measures how long it took (deadline tests: the call must
 * fail at its deadline, not after the fault's hold). An answer counts as a failure too, with
 * an error saying so, so the test's assertions on the error fail.
 */
export async function timedFailure(call: Promise<unknown>): Promise<TimedFailure> {
  const began = performance.now();
  const err = await call.then(
    () => new Error('the call was answered'),
    (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
  );
  return { err, ms: performance.now() - began };
}
