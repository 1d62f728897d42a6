import { spawn } from 'node:child_process';
import type { EventLoopDelay } from './operator-watch.js';

/**
 * The child: Node's event-loop delay histogram at the controller's resolution (10 ms), and
 * nothing else to do; its figures are written as JSON when its stdin closes.
 */
const IdleLoopScript = `
const { monitorEventLoopDelay } = require('node:perf_hooks');
const h = monitorEventLoopDelay({ resolution: 10 });
h.enable();
process.stdin.resume();
process.stdin.on('end', () => {
  h.disable();
  const s = (nanos) => (Number.isFinite(nanos) ? nanos / 1e9 : 0);
  process.stdout.write(JSON.stringify({ p50: s(h.percentile(50)), p99: s(h.percentile(99)), max: s(h.max) }));
  process.exit(0);
});
`;

/** A running idle process; `stop()` ends it and returns what its event loop saw. */
export interface IdleLoopProbe {
  /** Ends the process; its event-loop delay over its whole life, in seconds. */
  stop(): Promise<EventLoopDelay>;
}

/**
 * Starts a Node process that does nothing but measure how late its own event loop runs timers,
 * exactly as the controller's `nodewright_event_loop_delay_seconds` does. Run beside a
 * controller under load, it is the control sample: a process with no work of its own is delayed
 * only by waiting for a CPU, so its figures are what the machine alone imposes, and the
 * controller's figures above them are its own stalls.
 */
export function startIdleLoopProbe(nodePath: string = process.execPath): IdleLoopProbe {
  const child = spawn(nodePath, ['-e', IdleLoopScript], { stdio: ['pipe', 'pipe', 'pipe'] });
  // A probe that died early makes its stdin a broken pipe; stop() reports the exit instead.
  child.stdin.on('error', () => {});
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
  return {
    async stop() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the idle event-loop probe exited ${code}: ${err.trim()}`);
      const figures = JSON.parse(out) as EventLoopDelay;
      if (![figures.p50, figures.p99, figures.max].every((v) => typeof v === 'number' && v >= 0))
        throw new Error(`the idle event-loop probe wrote ${JSON.stringify(out)}`);
      return figures;
    },
  };
}
