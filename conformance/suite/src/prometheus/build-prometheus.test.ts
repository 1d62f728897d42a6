import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { BuildPrometheusScript } from './build-prometheus.js';

// The build script's contract without building: where prometheus would be, exit 3 while it is
// missing, a usage error for anything else. The build itself runs in
// dashboards-kwok.integration.test.ts.
const cache = mkdtempSync(join(tmpdir(), 'nw-prometheus-cache-'));
const run = (...args: string[]) =>
  spawnSync('bash', [BuildPrometheusScript, ...args], {
    env: { ...process.env, NODEWRIGHT_PROMETHEUS_CACHE: cache },
    encoding: 'utf8',
  });

afterAll(() => rmSync(cache, { recursive: true, force: true }));

it('--bin-dir names a directory under the cache root keyed by a hash, and exits 3 while prometheus is missing', () => {
  const result = run('--bin-dir');
  expect(result.status).toBe(3);
  expect(result.stdout.trim()).toMatch(new RegExp(`^${cache}/[0-9a-f]{16}/bin$`));
  expect(run('--bin-dir').stdout).toBe(result.stdout);
});

it('refuses an unknown argument', () => {
  const result = run('--nope');
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('unknown argument: --nope');
});
