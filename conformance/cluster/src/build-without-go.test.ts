import { execFile, execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// build.sh on a machine without Go: it cannot hash its inputs, so it must fall back to the
// newest complete cached build, and fail with a clear message when there is none.

const Script = fileURLToPath(new URL('../build/build.sh', import.meta.url));
const Binaries = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok'];

let cache: string;
beforeEach(async () => {
  cache = await mkdtemp(join(tmpdir(), 'nodewright-build-cache-'));
});
afterEach(async () => {
  await rm(cache, { recursive: true, force: true });
});

/** A cached build folder holding `binaries`, modified at `seconds` since the epoch. */
async function cachedBuild(hash: string, binaries: readonly string[], seconds: number): Promise<string> {
  const bin = join(cache, hash, 'bin');
  await mkdir(bin, { recursive: true });
  for (const b of binaries) {
    await writeFile(join(bin, b), '#!/bin/sh\n');
    await chmod(join(bin, b), 0o755);
  }
  await utimes(bin, seconds, seconds);
  return bin;
}

/**
 * Runs build.sh with a PATH of only the tools it needs before it looks for Go, so Go is absent
 * wherever this machine keeps it.
 */
async function runWithoutGo(): Promise<{ code: number; stdout: string; stderr: string }> {
  const tools = join(cache, '.tools');
  await mkdir(tools, { recursive: true });
  await symlink(execFileSync('bash', ['-c', 'command -v dirname']).toString().trim(), join(tools, 'dirname'));
  return new Promise((resolve) => {
    execFile(
      '/bin/bash',
      [Script],
      { env: { PATH: tools, HOME: cache, NODEWRIGHT_CLUSTER_CACHE: cache } },
      (error, stdout, stderr) =>
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    );
  });
}

describe('build.sh without go on PATH', () => {
  it('prints the newest complete cached build, ignoring incomplete ones', async () => {
    await cachedBuild('older', Binaries, 1_000);
    const newest = await cachedBuild('newer', Binaries, 2_000);
    await cachedBuild('newest-but-partial', Binaries.slice(1), 3_000);
    const ran = await runWithoutGo();
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe(newest);
    expect(ran.stderr).toContain('its inputs are not checked');
  });

  it('fails naming Go and the cache when nothing is cached', async () => {
    const ran = await runWithoutGo();
    expect(ran.code).toBe(1);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toContain(
      `go is not on PATH (Go 1.26 is required to build) and ${cache} holds no complete build`,
    );
  });
});
