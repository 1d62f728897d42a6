/** The part of `process` the hooks use; injectable so tests need not signal the test runner. */
export interface ProcessEvents {
  on(event: 'exit', listener: () => void): unknown;
  on(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(event: 'exit', listener: () => void): unknown;
  off(event: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  listenerCount(event: string): number;
  kill(pid: number, signal: NodeJS.Signals): unknown;
  readonly pid: number;
}

/**
 * Runs `killNow` (synchronous: nothing asynchronous runs in an 'exit' handler) when this process
 * exits or receives SIGINT or SIGTERM, so the children it started die with it instead of
 * outliving an interrupted test run. After a signal the hooks detach and, when nobody else
 * handles that signal, re-raise it so the default (exit) still happens. Returns the detach
 * function; call it once the children are gone.
 */
export function killOnProcessEnd(killNow: () => void, events: ProcessEvents = process): () => void {
  const onExit = (): void => killNow();
  const onSignal = (signal: NodeJS.Signals): void => {
    killNow();
    detach();
    if (events.listenerCount(signal) === 0) events.kill(events.pid, signal);
  };
  const detach = (): void => {
    events.off('exit', onExit);
    events.off('SIGINT', onSignal);
    events.off('SIGTERM', onSignal);
  };
  events.on('exit', onExit);
  events.on('SIGINT', onSignal);
  events.on('SIGTERM', onSignal);
  return detach;
}
