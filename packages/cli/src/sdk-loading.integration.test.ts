import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Which cloud SDK modules the built CLI loads, seen by a resolve hook in the child process: a
// provider's SDK is loaded only when that provider runs, so the commands that merely read a
// provider's kinds or catalogs, and a controller running another provider, never load it.
// The same hook sees the other packages a short command should not pay for (the operator's
// runtime, the Kubernetes client, the YAML parser for JSON input).
const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');
// The CLI's compiled modules unbundled (bin.js runs the bundle, which holds zod and yaml): the
// module graph whose lazy imports the bundle's chunks follow.
const modules = join(root, 'packages', 'cli', 'dist', 'entry.js');

/**
 * Records every resolved @aws-sdk and @azure package, and the GCP SDK (as `gcp:<package>`), and
 * apart from them every other package resolved under node_modules, into $SDK_TRACE when the
 * process exits.
 */
const TraceHook = `import { registerHooks } from 'node:module';
import { writeFileSync } from 'node:fs';
const seen = new Set();
const packages = new Set();
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    const match = /\\/(@aws-sdk|@azure)\\/([^/]+)\\//.exec(result.url);
    if (match) seen.add(match[1] + '/' + match[2]);
    const gcp = /\\/(@google-cloud\\/compute|google-gax)\\//.exec(result.url);
    if (gcp) seen.add('gcp:' + gcp[1]);
    const pkg = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\/(?!.*\\/node_modules\\/)/.exec(result.url);
    if (pkg && !pkg[1].startsWith('@nodewright/')) packages.add(pkg[1]);
    return result;
  },
});
process.on('exit', () =>
  writeFileSync(process.env.SDK_TRACE, JSON.stringify({ sdk: [...seen].sort(), packages: [...packages].sort() })),
);
`;

describe('cloud SDKs are loaded only by the provider that needs them (built bin.js)', () => {
  let dir: string;
  let hook: string;
  let n = 0;

  /** Runs node with the trace hook; returns the exit status and the cloud SDK packages loaded. */
  const traced = async (args: string[], cwd = root) => {
    const trace = join(dir, `trace-${++n}.json`);
    const result = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, ...args], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, SDK_TRACE: trace, KUBECONFIG: '' },
    });
    if (result.error) throw result.error;
    const { sdk, packages } = existsSync(trace)
      ? (JSON.parse(await readFile(trace, 'utf8')) as { sdk: string[]; packages: string[] })
      : { sdk: ['<no trace>'], packages: ['<no trace>'] };
    return { code: result.status, err: result.stderr, sdk, packages };
  };

  beforeAll(async () => {
    if (!existsSync(bin)) throw new Error(`${bin} does not exist: run pnpm build first`);
    dir = await mkdtemp(join(tmpdir(), 'nodewright-sdk-'));
    hook = join(dir, 'trace-hook.mjs');
    await writeFile(hook, TraceHook);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the hook sees the AWS SDK when AWS clients are built (the control)', async () => {
    const script = `const { awsClients } = await import('@nodewright/aws'); (await awsClients({ region: 'us-west-2', pricingRegion: 'us-east-1' })).destroy();`;
    const { code, sdk, err } = await traced(
      ['--input-type=module', '-e', script],
      join(root, 'providers', 'aws'),
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(sdk).toEqual(
      expect.arrayContaining(['@aws-sdk/client-ec2', '@aws-sdk/client-pricing', '@aws-sdk/client-sqs']),
    );
    expect(sdk.filter((p) => p.startsWith('@azure/'))).toEqual([]);
  });

  it('the hook sees the Azure SDK when Azure clients are built (the control)', async () => {
    const script = `const { armClients } = await import('@nodewright/azure/clients'); armClients({ subscriptionId: '00000000-0000-0000-0000-000000000000', credential: { getToken: async () => null } });`;
    const { code, sdk, err } = await traced(
      ['--input-type=module', '-e', script],
      join(root, 'providers', 'azure'),
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(sdk).toEqual(expect.arrayContaining(['@azure/arm-compute', '@azure/arm-network']));
    expect(sdk.filter((p) => p.startsWith('@aws-sdk/'))).toEqual([]);
  });

  it('the hook sees the GCP SDK when GCP clients are built (the control)', async () => {
    const script = `const { gceSdk } = await import('./dist/sdk/gce-sdk.js'); await (await gceSdk({ project: 'my-project', anonymous: true })).compute.close();`;
    const { code, sdk, err } = await traced(
      ['--input-type=module', '-e', script],
      join(root, 'providers', 'gcp'),
    );
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(sdk).toEqual(expect.arrayContaining(['gcp:@google-cloud/compute', 'gcp:google-gax']));
  });

  it.each([
    ['validate (EC2NodeClasses included)', ['validate', '-f', 'examples/nodepools/aws']],
    ['schedule --catalog kwok', ['schedule', '-f', 'examples/schedule', '--catalog', 'kwok']],
    ['schedule --catalog aws', ['schedule', '-f', 'examples/schedule', '--catalog', 'aws']],
    ['schedule --catalog gcp', ['schedule', '-f', 'examples/nodepools/gcp', '--catalog', 'gcp']],
    ['validate (GCENodeClasses included)', ['validate', '-f', 'examples/nodepools/gcp']],
    ['validate (AKSNodeClasses included)', ['validate', '-f', 'examples/nodepools/azure']],
    ['schedule --catalog azure', ['schedule', '-f', 'examples/schedule', '--catalog', 'azure']],
    ['crds', ['crds']],
    ['convert', ['convert', '-f', 'examples/convert']],
  ])('%s loads no cloud SDK module', async (_, args) => {
    const { code, sdk, err } = await traced([bin, ...args]);
    expect(code, err).toBe(0);
    expect(sdk).toEqual([]);
  });

  it.each([
    ['kwok', []],
    ['aws', ['--set', 'region=us-west-2']],
  ])(
    'controller --provider %s loads no GCP SDK (it stops at the missing kubeconfig)',
    async (provider, settings) => {
      const { code, sdk, err } = await traced([
        bin,
        'controller',
        '--provider',
        provider,
        ...settings,
        '--kubeconfig',
        join(dir, 'none'),
      ]);
      expect(err).toContain('cannot load kubeconfig');
      expect(code).toBe(1);
      expect(sdk.filter((s) => s.startsWith('gcp:'))).toEqual([]);
    },
  );

  it('controller --provider kwok loads no cloud SDK module (it stops at the missing kubeconfig)', async () => {
    const { code, sdk, err } = await traced([
      bin,
      'controller',
      '--provider',
      'kwok',
      '--kubeconfig',
      join(dir, 'none'),
    ]);
    expect(err).toContain('cannot load kubeconfig');
    expect(code).toBe(1);
    expect(sdk).toEqual([]);
  });

  // What a short command pays for is what it loads (docs/cli.md, bench/README.md `bench:cli`).
  const runtime = ['inversify', 'pino', 'prom-client', '@kubernetes/client-node'];

  const shortCommands: [string, string[]][] = [
    ['validate', ['validate', '-f', 'examples/nodepools']],
    ['schedule -f', ['schedule', '-f', 'examples/schedule', '--catalog', 'kwok']],
    ['disrupt -f', ['disrupt', '-f', 'examples/disrupt', '--catalog', 'kwok']],
    ['convert', ['convert', '-f', 'examples/convert']],
  ];

  it.each(shortCommands)(
    '%s loads neither the operator runtime nor the Kubernetes client',
    async (_, args) => {
      const { code, packages, err } = await traced([modules, ...args, '-R']);
      expect(code, err).toBe(0);
      expect(packages).toEqual(expect.arrayContaining(['zod']));
      expect(packages.filter((p) => runtime.includes(p))).toEqual([]);
    },
  );

  it.each(shortCommands)('%s bundled loads zod from the bundle and no runtime package', async (_, args) => {
    const { code, packages, err } = await traced([bin, ...args, '-R']);
    expect(code, err).toBe(0);
    expect(packages).not.toContain('zod');
    expect(packages.filter((p) => runtime.includes(p))).toEqual([]);
  });

  it('schedule of JSON files loads no YAML parser; of a YAML file, it does (the control)', async () => {
    const json = join(dir, 'pod.json');
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'default' },
      spec: { containers: [{ name: 'app', resources: { requests: { cpu: '1' } } }] },
    };
    await writeFile(json, JSON.stringify(pod));
    const nodePool = join(root, 'examples', 'schedule', 'nodepools.yaml');
    const fromJson = await traced([modules, 'schedule', '-f', json, '--catalog', 'kwok', '-o', 'json']);
    expect(fromJson.code, fromJson.err).toBe(0);
    expect(fromJson.packages).not.toContain('yaml');
    const fromYaml = await traced([modules, 'schedule', '-f', json, '-f', nodePool, '--catalog', 'kwok']);
    expect(fromYaml.code, fromYaml.err).toBe(0);
    expect(fromYaml.packages).toContain('yaml');
    // Bundled, yaml is part of the bundle (called into on first use, see scripts/bundle.ts).
    const bundled = await traced([bin, 'schedule', '-f', json, '-f', nodePool, '--catalog', 'kwok']);
    expect(bundled.code, bundled.err).toBe(0);
    expect(bundled.packages).not.toContain('yaml');
  });
});
