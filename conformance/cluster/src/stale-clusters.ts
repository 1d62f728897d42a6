import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { isAbandoned, type ProcessProbe, parsePidRecord, survivors } from './pid-record.js';
import { procfsProbe, terminate } from './processes.js';

/** Name prefix of cluster directories, so stale ones can be found among other temp files. */
export const CLUSTER_DIR_PREFIX = 'nodewright-cluster-';
/** The pid record file inside a cluster directory. */
export const PID_RECORD_FILE = 'pids.json';

/** What a stale-cluster sweep did, for the start-up log. */
export interface SweepResult {
  /** Cluster directories removed because their owner was gone. */
  removed: string[];
  /** Processes stopped in them. */
  stopped: number;
}

/**
 * Stops the processes of clusters whose owning test run died without tearing down, and
 * removes their directories. Clusters whose owner still runs are left alone, and so are
 * directories without a pid record (kept logs of a failed start). `prefix` picks the directories
 * (and the extra directories a record may name): the clusters' by default; the end-to-end suite
 * sweeps its work directories, whose records list controller processes, the same way.
 */
export async function sweepStaleClusters(
  baseDir: string,
  probe: ProcessProbe = procfsProbe,
  prefix: string = CLUSTER_DIR_PREFIX,
): Promise<SweepResult> {
  const result: SweepResult = { removed: [], stopped: 0 };
  let entries: string[];
  try {
    entries = await readdir(baseDir);
  } catch {
    return result;
  }
  for (const entry of entries.filter((e) => e.startsWith(prefix))) {
    const dir = join(baseDir, entry);
    const text = await readFile(join(dir, PID_RECORD_FILE), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const record = parsePidRecord(text);
    if (record === undefined || !isAbandoned(record, probe)) continue;
    const alive = survivors(record, probe);
    await terminate(
      alive.map((p) => p.pid),
      5_000,
      probe,
    );
    result.stopped += alive.length;
    // Only directories this launcher could have made: the record is a file anyone could edit.
    for (const extra of record.extraDirs.filter((d) => basename(d).startsWith(prefix))) {
      await rm(extra, { recursive: true, force: true });
    }
    await rm(dir, { recursive: true, force: true });
    result.removed.push(dir);
  }
  return result;
}
