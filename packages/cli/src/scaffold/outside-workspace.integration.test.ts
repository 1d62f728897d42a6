import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The scaffold's promise, kept the way an author meets it: a provider generated into a folder
// outside this repository, with the nodewright packages packed (`pnpm pack`, as they would be
// published) and installed from those tarballs, every other dependency from the npm registry,
// builds under strict tsc and passes its provider-contract suite, then its cluster end-to-end
// suite on a control plane of its own. Needs `pnpm build` first (the packages ship dist/).

const RepoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
/** Every workspace package the generated provider's dependencies reach, with its folder. */
const Packed = [
  'packages/core',
  'packages/cli',
  'providers/kwok',
  'providers/aws',
  'providers/azure',
  'providers/gcp',
  'conformance',
] as const;
const Name = 'outside-cloud';

interface Ran {
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** Runs a command; rejects with its output's tail when it exits non-zero. */
function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      const ms = Date.now() - started;
      if (error === null) return resolve({ stdout, stderr, ms });
      const tail = `${stdout}\n${stderr}`.split('\n').slice(-80).join('\n');
      reject(new Error(`${command} ${args.join(' ')} in ${cwd} failed (${error.message}):\n${tail}`));
    });
  });
}

/** The summary of a clause report the generated package's suite wrote. */
async function reportSummary(suite: 'provider-contract' | 'cluster-e2e'): Promise<Record<string, number>> {
  const path = join(pkg, `reports/${suite}-${Name}-mock-cloud.json`);
  return (JSON.parse(await readFile(path, 'utf8')) as { summary: Record<string, number> }).summary;
}

/** A report summary in which all `total` clauses passed. */
function allPassed(total: number): Record<string, number> {
  return { passed: total, failed: 0, skipped: 0, 'not-run': 0, total };
}

let work: string;
let pkg: string;
let env: NodeJS.ProcessEnv;
const timings: Record<string, number> = {};

beforeAll(async () => {
  for (const dir of Packed) {
    if (!existsSync(join(RepoRoot, dir, 'package.json'))) throw new Error(`${dir} is not a package`);
  }
  if (!existsSync(join(RepoRoot, 'packages/cli/dist/bin.js'))) {
    throw new Error('packages/cli/dist/bin.js does not exist: run pnpm build first');
  }
  work = await mkdtemp(join(tmpdir(), 'nodewright-outside-'));
  pkg = join(work, Name);
  // The project's Node 24 first (pnpm scripts run `node`), and no cluster of this run's: the
  // generated e2e suite starts its own, as the repository's e2e files do.
  env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
  delete env.NODEWRIGHT_KUBECONFIG;
  delete env.npm_config_user_agent;
});

afterAll(async () => {
  if (work !== undefined && process.env.NODEWRIGHT_CLUSTER_KEEP !== '1') {
    await rm(work, { recursive: true, force: true });
  }
  console.info(JSON.stringify({ message: 'outside-workspace scaffold timings', ...timings }));
});

describe('a provider generated outside the workspace, on packed nodewright packages', () => {
  it('packs the packages, generates the provider and installs the tarballs into it', async () => {
    const tarballs = join(work, 'tarballs');
    await mkdir(tarballs);
    let started = Date.now();
    for (const dir of Packed) {
      await run('pnpm', ['pack', '--pack-destination', tarballs], join(RepoRoot, dir), env);
    }
    timings['pack-ms'] = Date.now() - started;
    const packed = (await readdir(tarballs)).sort();
    expect(packed).toHaveLength(Packed.length);

    await run(
      process.execPath,
      [join(RepoRoot, 'packages/cli/dist/bin.js'), 'new', 'provider', Name],
      work,
      env,
    );
    // What an author does to try unreleased packages: point every @nodewright package, direct or
    // transitive, at its tarball. Builds of native helpers nodewright does not need stay off.
    const overrides = packed.map((file) => {
      const name = /^nodewright-(.+)-\d+\.\d+\.\d+.*\.tgz$/.exec(file)?.[1];
      return `  '@nodewright/${name}': 'file:${join(tarballs, file)}'`;
    });
    await writeFile(
      join(pkg, 'pnpm-workspace.yaml'),
      `overrides:\n${overrides.join('\n')}\nallowBuilds:\n  cpu-features: false\n  ssh2: false\n  protobufjs: false\n`,
    );
    started = Date.now();
    await run('pnpm', ['install'], pkg, env);
    timings['install-ms'] = Date.now() - started;
    const installed = JSON.parse(
      await readFile(join(pkg, 'node_modules/@nodewright/core/package.json'), 'utf8'),
    ) as { version: string };
    expect(installed.version).toMatch(/^\d+\.\d+\.\d+/);
    // Installed from the tarballs, not linked back into this repository.
    expect(existsSync(join(pkg, 'node_modules/@nodewright/core/src'))).toBe(false);
  }, 600_000);

  it('builds under strict tsc, its tests included', async () => {
    timings['build-ms'] = (await run('pnpm', ['run', 'build'], pkg, env)).ms;
    timings['typecheck-ms'] = (await run('pnpm', ['run', 'typecheck'], pkg, env)).ms;
    expect(existsSync(join(pkg, 'dist/bin.js'))).toBe(true);
    expect(existsSync(join(pkg, 'dist/index.d.ts'))).toBe(true);
  }, 300_000);

  it('passes its provider-contract suite, every clause in the report', async () => {
    const ran = await run('pnpm', ['test'], pkg, env);
    timings['contract-ms'] = ran.ms;
    expect(await reportSummary('provider-contract')).toEqual(allPassed(14));
  }, 300_000);

  it('loads through the stock CLI as --provider-module', async () => {
    const ran = await run(
      process.execPath,
      [join(pkg, 'node_modules/@nodewright/cli/dist/bin.js'), 'crds', '--provider-module', '.'],
      pkg,
      env,
    );
    expect(ran.stdout).toContain('name: outsidecloudnodeclasses.outside-cloud.example.com');
  }, 120_000);

  it('passes its cluster end-to-end suite on a control plane of its own', async () => {
    const ran = await run('pnpm', ['run', 'test:e2e'], pkg, env);
    timings['e2e-ms'] = ran.ms;
    expect(await reportSummary('cluster-e2e')).toEqual(allPassed(11));
  }, 1_200_000);
});
