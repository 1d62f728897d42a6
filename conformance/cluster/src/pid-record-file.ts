import { writeFileSync } from 'node:fs';
import type { PidRecord, RecordedProcess } from './pid-record.js';

/** Where a process is recorded once started and forgotten once it has exited. */
export interface ProcessRegistry {
  add(process: RecordedProcess): void;
  remove(pid: number): void;
}

/**
 * A pids.json kept up to date on disk (synchronously, so it is current whenever the owner may
 * die): the owner, the processes it started that still run, and directories to remove with
 * them. `sweepStaleClusters` reads it after the owner died.
 */
export class PidRecordFile implements ProcessRegistry {
  readonly path: string;
  readonly #ownerPid: number;
  readonly #extraDirs: readonly string[];
  readonly #processes: RecordedProcess[] = [];

  constructor(path: string, ownerPid: number, extraDirs: readonly string[] = []) {
    this.path = path;
    this.#ownerPid = ownerPid;
    this.#extraDirs = [...extraDirs];
    this.#write();
  }

  add(process: RecordedProcess): void {
    this.#processes.push(process);
    this.#write();
  }

  /** Forgets a process; a record whose directory is already gone has nothing left to forget. */
  remove(pid: number): void {
    const at = this.#processes.findIndex((p) => p.pid === pid);
    if (at < 0) return;
    this.#processes.splice(at, 1);
    try {
      this.#write();
    } catch (err) {
      // Called from child 'exit' handlers, where a throw would take the test process down.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  /** The record as written. */
  record(): PidRecord {
    return { ownerPid: this.#ownerPid, processes: [...this.#processes], extraDirs: [...this.#extraDirs] };
  }

  #write(): void {
    writeFileSync(this.path, `${JSON.stringify(this.record(), null, 2)}\n`);
  }
}
