/** Memory figures of one process from /proc/<pid>/status, in bytes. */
export interface ProcessMemory {
  /** VmRSS: resident set now. */
  readonly rssBytes: number;
  /** VmHWM: the peak resident set since the process started. */
  readonly peakRssBytes: number;
}

/**
 * Reads VmRSS and VmHWM out of the text of /proc/<pid>/status (values are in kB there).
 * @throws naming the missing field when the text lacks one (not Linux, or a zombie).
 */
export function parseProcStatus(text: string): ProcessMemory {
  const field = (name: string): number => {
    const match = new RegExp(`^${name}:\\s+(\\d+)\\s+kB$`, 'm').exec(text);
    if (!match?.[1]) throw new Error(`/proc status has no ${name} line`);
    return Number(match[1]) * 1024;
  };
  return { rssBytes: field('VmRSS'), peakRssBytes: field('VmHWM') };
}

/**
 * Clock ticks per second in /proc/<pid>/stat: USER_HZ, which Linux fixes at 100 for user space
 * on every architecture it runs nodewright on (x86-64, arm64).
 */
const UserHz = 100;

/**
 * The CPU time a process has used (user + system, its own threads only), in seconds, out of
 * the text of /proc/<pid>/stat. Fields are counted after the command name's closing
 * parenthesis, as the name itself may hold spaces and parentheses.
 * @throws when the text does not have the utime and stime fields.
 */
export function parseProcStatCpuSeconds(text: string): number {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // Fields 14 (utime) and 15 (stime) of proc(5); the state, field 3, is the first after the name.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isInteger(utime) || !Number.isInteger(stime) || fields[12] === undefined) {
    throw new Error(`/proc stat has no utime and stime fields: ${JSON.stringify(text.slice(0, 80))}`);
  }
  return (utime + stime) / UserHz;
}

/** The p-th percentile (0..100) by nearest rank; undefined for no samples. */
export function percentile(samples: readonly number[], p: number): number | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}
