import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PidRecord } from './pid-record.js';
import { procfsProbe } from './processes.js';
import { CLUSTER_DIR_PREFIX, PID_RECORD_FILE, sweepStaleClusters } from './stale-clusters.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function baseDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'nw-sweep-test-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A pid that certainly belongs to no running process: one that has exited. */
function deadPid(): number {
  const result = spawnSync('true');
  return result.pid ?? 0;
}

async function writeCluster(base: string, name: string, record: PidRecord | undefined): Promise<string> {
  const dir = join(base, name);
  await mkdir(dir);
  if (record) await writeFile(join(dir, PID_RECORD_FILE), JSON.stringify(record));
  return dir;
}

describe('sweepStaleClusters', () => {
  it('stops the processes of a cluster whose owner died and removes its directories', async () => {
    const base = await baseDir();
    const sleeper = spawn('/bin/sleep', ['60'], { stdio: 'ignore' });
    cleanups.push(async () => void sleeper.kill('SIGKILL'));
    const exited = new Promise((resolve) => sleeper.once('exit', resolve));
    const extra = join(base, `${CLUSTER_DIR_PREFIX}etcd-1`);
    await mkdir(extra);
    const dir = await writeCluster(base, `${CLUSTER_DIR_PREFIX}a`, {
      ownerPid: deadPid(),
      processes: [{ name: 'etcd', pid: sleeper.pid!, binary: '/bin/sleep' }],
      extraDirs: [extra],
    });

    const result = await sweepStaleClusters(base);

    expect(result).toEqual({ removed: [dir], stopped: 1 });
    await exited;
    expect(sleeper.signalCode).toBe('SIGTERM');
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(extra)).toBe(false);
  });

  it('leaves clusters whose owner runs, directories without a record, and other files', async () => {
    const base = await baseDir();
    const owned = await writeCluster(base, `${CLUSTER_DIR_PREFIX}live`, {
      ownerPid: process.pid,
      processes: [],
      extraDirs: [],
    });
    const logsOnly = await writeCluster(base, `${CLUSTER_DIR_PREFIX}failed`, undefined);
    const other = await writeCluster(base, 'something-else', {
      ownerPid: deadPid(),
      processes: [],
      extraDirs: [],
    });

    expect(await sweepStaleClusters(base)).toEqual({ removed: [], stopped: 0 });
    expect([owned, logsOnly, other].every((d) => existsSync(d))).toBe(true);
  });

  it('does not signal a reused pid nor delete directories it did not make', async () => {
    const base = await baseDir();
    const unrelated = join(base, 'unrelated-dir');
    await mkdir(unrelated);
    const dir = await writeCluster(base, `${CLUSTER_DIR_PREFIX}reused`, {
      ownerPid: deadPid(),
      // This test process: alive, but not running the recorded binary.
      processes: [{ name: 'etcd', pid: process.pid, binary: '/nonexistent/etcd' }],
      // Not a directory the launcher makes, so the sweep must not delete it.
      extraDirs: [unrelated],
    });
    const result = await sweepStaleClusters(base);
    expect(result).toEqual({ removed: [dir], stopped: 0 });
    expect(procfsProbe.isAlive(process.pid)).toBe(true);
    expect(existsSync(unrelated)).toBe(true);
  });

  it('sweeps the directories of another prefix when asked (the e2e work directories and their controllers)', async () => {
    const base = await baseDir();
    const sleeper = spawn('/bin/sleep', ['60'], { stdio: 'ignore' });
    cleanups.push(async () => void sleeper.kill('SIGKILL'));
    const exited = new Promise((resolve) => sleeper.once('exit', resolve));
    const record = {
      ownerPid: deadPid(),
      processes: [{ name: 'controller e2e-a', pid: sleeper.pid!, binary: '/bin/sleep' }],
      extraDirs: [],
    };
    const work = await writeCluster(base, 'nodewright-e2e-kwok-1', record);
    const cluster = await writeCluster(base, `${CLUSTER_DIR_PREFIX}b`, { ...record, processes: [] });

    const result = await sweepStaleClusters(base, procfsProbe, 'nodewright-e2e-');

    expect(result).toEqual({ removed: [work], stopped: 1 });
    await exited;
    expect(existsSync(work)).toBe(false);
    expect(existsSync(cluster)).toBe(true);
  });

  it('returns nothing for a base directory that does not exist', async () => {
    expect(await sweepStaleClusters(join(tmpdir(), 'nw-does-not-exist-xyz'))).toEqual({
      removed: [],
      stopped: 0,
    });
  });
});
