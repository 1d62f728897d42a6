import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { repoRoot } from './helm.js';

// The build script's contract without building: where helm would be, exit 3 while it is
// missing, a usage error for anything else. The build itself runs in chart.integration.test.ts.
const script = join(repoRoot, 'conformance/cluster/build/build-helm.sh');
const cache = mkdtempSync(join(tmpdir(), 'nw-helm-cache-'));
const run = (...args: string[]) =>
  spawnSync('bash', [script, ...args], {
    env: { ...process.env, NODEWRIGHT_HELM_CACHE: cache },
    encoding: 'utf8',
  });

afterAll(() => rmSync(cache, { recursive: true, force: true }));

it('--bin-dir names a directory under the cache root keyed by a hash, and exits 3 while helm is missing', () => {
  const result = run('--bin-dir');
  expect(result.status).toBe(3);
  expect(result.stdout.trim()).toMatch(new RegExp(`^${cache}/[0-9a-f]{16}/bin$`));
});

it('names the same directory on every call (the key is the inputs, not the time)', () => {
  expect(run('--bin-dir').stdout).toBe(run('--bin-dir').stdout);
});

it('refuses an unknown argument', () => {
  const result = run('--nope');
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('unknown argument: --nope');
});

it('without go on PATH, uses the cached helm, or says there is none', () => {
  // A PATH holding only what the script runs before it looks for go.
  const tools = join(cache, '.tools');
  mkdirSync(tools, { recursive: true });
  symlinkSync(execFileSync('bash', ['-c', 'command -v dirname']).toString().trim(), join(tools, 'dirname'));
  const noGo = () =>
    spawnSync('/bin/bash', [script], {
      env: { PATH: tools, HOME: cache, NODEWRIGHT_HELM_CACHE: cache },
      encoding: 'utf8',
    });
  const none = noGo();
  expect(none.status).toBe(1);
  expect(none.stderr).toContain('holds no complete build');
  const bin = join(cache, 'cached', 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'helm'), '#!/bin/sh\n');
  chmodSync(join(bin, 'helm'), 0o755);
  const found = noGo();
  expect(found.status).toBe(0);
  expect(found.stdout.trim()).toBe(bin);
});
