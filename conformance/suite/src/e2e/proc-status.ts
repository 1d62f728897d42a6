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

/** The p-th percentile (0..100) by nearest rank; undefined for no samples. */
export function percentile(samples: readonly number[], p: number): number | undefined {
  if (samples.length === 0) return undefined;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}
