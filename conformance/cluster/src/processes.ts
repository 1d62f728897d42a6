import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProcessProbe, RecordedProcess } from './pid-record.js';
import { PidRecordFile } from './pid-record-file.js';

/** Process facts read from Linux /proc and kill(pid, 0). */
export const procfsProbe: ProcessProbe = {
  isAlive(pid) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      // EPERM: it exists but belongs to someone else.
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
    // A zombie has exited; it only waits for its parent (often init, for orphans) to reap it.
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return true;
    }
  },
  executable(pid) {
    try {
      const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
      return argv0 === '' ? undefined : argv0;
    } catch {
      return undefined;
    }
  },
};

/** Sends SIGTERM, then SIGKILL to what is still alive after `graceMs`. Works for any pid. */
export async function terminate(
  pids: readonly number[],
  graceMs: number,
  probe = procfsProbe,
): Promise<void> {
  const signal = (pid: number, sig: NodeJS.Signals): void => {
    try {
      process.kill(pid, sig);
    } catch {
      // Already gone.
    }
  };
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (pids.some((pid) => probe.isAlive(pid)) && Date.now() < deadline) await sleep(50);
  for (const pid of pids) if (probe.isAlive(pid)) signal(pid, 'SIGKILL');
}

export interface ProcessExit {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  logFile: string;
}

interface Running {
  recorded: RecordedProcess;
  child: ChildProcess;
  logFile: string;
}

/**
 * Starts the control-plane processes, each logging to its own file, and records their
 * pids in `recordFile` as they start so a later run can clean up after a crash. Stopping is
 * by recorded pid, in reverse start order.
 */
export class ProcessSupervisor {
  readonly #record: PidRecordFile;
  readonly #running: Running[] = [];
  readonly #exits: ProcessExit[] = [];
  #stopping = false;

  constructor(recordFile: string, ownerPid: number, extraDirs: readonly string[]) {
    this.#record = new PidRecordFile(recordFile, ownerPid, extraDirs);
  }

  /** Spawns `binary` with `args`; resolves once the OS has started it. */
  start(name: string, binary: string, args: readonly string[], logFile: string): Promise<void> {
    const fd = openSync(logFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(binary, args, { stdio: ['ignore', fd, fd] });
    } finally {
      // The child holds its own copy of the descriptor.
      closeSync(fd);
    }
    return new Promise((resolve, reject) => {
      child.once('error', (error) => reject(new Error(`cannot start ${name} (${binary}): ${error.message}`)));
      child.once('spawn', () => {
        const pid = child.pid!;
        this.#running.push({ recorded: { name, pid, binary }, child, logFile });
        this.#record.add({ name, pid, binary });
        child.once('exit', (code, signal) => {
          if (!this.#stopping) this.#exits.push({ name, code, signal, logFile });
        });
        resolve();
      });
    });
  }

  /** Processes that exited without being asked to; non-empty means the cluster is broken. */
  unexpectedExits(): readonly ProcessExit[] {
    return this.#exits;
  }

  /** Stops everything, newest first, waiting up to `graceMs` per process before SIGKILL. */
  async stop(graceMs = 10_000): Promise<void> {
    this.#stopping = true;
    for (const { child } of [...this.#running].reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      await terminate([child.pid!], graceMs);
      await exited;
    }
  }

  /**
   * SIGKILLs everything at once, synchronously: for process 'exit' handlers, where no
   * asynchronous work runs any more.
   */
  killNow(): void {
    this.#stopping = true;
    for (const { child } of this.#running) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }
}
