import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a user gets from `npm install @nodewright/cli`: the packages packed as they would be
// published, installed from those tarballs into an empty folder outside the workspace (every
// other dependency from the npm registry), and the installed `nodewright` run there. The cloud
// providers are the CLI's optional peers, so no cloud SDK may come with it. Needs `pnpm build`.

const RepoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const Packed = ['packages/core', 'packages/cli', 'providers/kwok'] as const;

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

async function mustRun(command: string, args: readonly string[], cwd: string): Promise<Ran> {
  const ran = await run(command, args, cwd, env);
  if (ran.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} in ${cwd} exited ${ran.code}:\n${ran.stdout}\n${ran.stderr}`,
    );
  }
  return ran;
}

let work: string;
let app: string;
let env: NodeJS.ProcessEnv;

/** The installed command, run as a user runs it (its bin under the project's Node 24). */
function nodewright(...args: string[]): Promise<Ran> {
  return run(process.execPath, [join(app, 'node_modules/@nodewright/cli/dist/bin.js'), ...args], app, env);
}

beforeAll(async () => {
  if (!existsSync(join(RepoRoot, 'packages/cli/dist/bin.js'))) {
    throw new Error('packages/cli/dist/bin.js does not exist: run pnpm build first');
  }
  work = await mkdtemp(join(tmpdir(), 'nodewright-packed-cli-'));
  app = join(work, 'app');
  env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
  delete env.npm_config_user_agent;
});

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

describe('@nodewright/cli installed from its tarball into an empty folder', () => {
  it('installs without any cloud SDK', async () => {
    const tarballs = join(work, 'tarballs');
    await mkdir(tarballs, { recursive: true });
    for (const dir of Packed)
      await mustRun('pnpm', ['pack', '--pack-destination', tarballs], join(RepoRoot, dir));
    const files = await readdir(tarballs);
    const tarball = (name: string) => {
      const file = files.find((f) => f.startsWith(`nodewright-${name}-`));
      if (file === undefined) throw new Error(`no tarball for ${name} in ${files.join(', ')}`);
      return `file:${join(tarballs, file)}`;
    };
    await mkdir(app);
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'app', private: true, dependencies: { '@nodewright/cli': tarball('cli') } }),
    );
    // The unreleased @nodewright packages come from the tarballs, as an author trying them would.
    await writeFile(
      join(app, 'pnpm-workspace.yaml'),
      `overrides:\n  '@nodewright/core': '${tarball('core')}'\n  '@nodewright/kwok': '${tarball('kwok')}'\n`,
    );
    await mustRun('pnpm', ['install'], app);
    const store = await readdir(join(app, 'node_modules/.pnpm'));
    expect(store.filter((d) => /^@(aws-sdk|azure|google-cloud)\+/.test(d))).toEqual([]);
    expect(existsSync(join(app, 'node_modules/@nodewright/cli/dist/bin.js'))).toBe(true);
  }, 600_000);

  it('validates a NodePool and schedules on the kwok catalog', async () => {
    await cp(join(RepoRoot, 'examples/schedule'), join(app, 'schedule'), { recursive: true });
    await writeFile(
      join(app, 'nodepool.yaml'),
      'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: default\nspec:\n  template:\n    spec:\n      nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default}\n      requirements: []\n',
    );
    const validated = await nodewright('validate', '-f', 'nodepool.yaml');
    expect(validated.stderr).toBe('');
    expect(validated.stdout).toContain('OK NodePool/default');
    expect(validated.code).toBe(0);

    const scheduled = await nodewright('schedule', '-f', 'schedule', '--catalog', 'kwok', '-o', 'json');
    expect(scheduled.code).toBe(0);
    const decision = JSON.parse(scheduled.stdout) as { nodeClaims: unknown[] };
    expect(decision.nodeClaims.length).toBeGreaterThan(0);
  }, 120_000);

  it('names the package to install when a cloud provider is asked for', async () => {
    const ran = await nodewright('schedule', '-f', 'schedule', '--catalog', 'aws');
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain('npm install @nodewright/aws');
    const controller = await nodewright('controller', '--provider', 'azure');
    expect(controller.code).toBe(2);
    expect(controller.stderr).toContain('npm install @nodewright/azure');
  }, 120_000);
});
