/**
 * The pids.json file each running cluster keeps in its directory, so a later start can
 * stop processes a crashed test run left behind (SIGKILL, OOM) and free their ports.
 */
export interface PidRecord {
  /** The process (the test runner) that started the cluster. */
  ownerPid: number;
  processes: RecordedProcess[];
  /** Extra directories to remove with the cluster directory (etcd data on tmpfs). */
  extraDirs: string[];
}

export interface RecordedProcess {
  name: string;
  pid: number;
  /** Absolute path of the binary, checked against the live process before signalling it. */
  binary: string;
}

/** What the host can tell about a process id. */
export interface ProcessProbe {
  isAlive(pid: number): boolean;
  /** argv[0] of the process, or undefined when it cannot be read. */
  executable(pid: number): string | undefined;
}

export function parsePidRecord(text: string): PidRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<PidRecord>;
    if (typeof value.ownerPid !== 'number' || !Array.isArray(value.processes)) return undefined;
    return {
      ownerPid: value.ownerPid,
      processes: value.processes.filter(
        (p): p is RecordedProcess =>
          typeof p === 'object' && p !== null && typeof p.pid === 'number' && typeof p.binary === 'string',
      ),
      extraDirs: Array.isArray(value.extraDirs) ? value.extraDirs.filter((d) => typeof d === 'string') : [],
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether a recorded cluster is abandoned: its owner is gone. A live owner means another
 * test run is using it, which must not be disturbed.
 */
export function isAbandoned(record: PidRecord, probe: ProcessProbe): boolean {
  return !probe.isAlive(record.ownerPid);
}

/**
 * The recorded processes still running their recorded binary. A pid that now runs
 * something else was reused by the kernel and is left alone.
 */
export function survivors(record: PidRecord, probe: ProcessProbe): RecordedProcess[] {
  return record.processes.filter((p) => probe.isAlive(p.pid) && probe.executable(p.pid) === p.binary);
}
