import { ControllerNodeFlags, missingNodeFlags } from './node-flags.js';

/**
 * Replaces this process (same pid, same stdio) with one running under ControllerNodeFlags, when
 * node was started without them: node takes heap flags only at start. Returns (doing nothing)
 * when they are all set or where execve is missing (Windows), so the caller then just goes on.
 * `script` is the entry file to run again, `args` what follows it.
 */
export function relaunchWithControllerFlags(script: string | undefined, args: readonly string[]): void {
  if (typeof process.execve !== 'function' || script === undefined) return;
  const missing = missingNodeFlags(ControllerNodeFlags, process.execArgv, process.env.NODE_OPTIONS);
  if (missing.length === 0) return;
  process.execve(
    process.execPath,
    [process.execPath, ...missing, ...process.execArgv, script, ...args],
    process.env,
  );
}
