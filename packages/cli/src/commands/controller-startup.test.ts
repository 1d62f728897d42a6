import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built CLI, run as an operator runs it, against an "API server" that only counts the
// connections made to it and a metrics port already taken: a settings problem must end the
// run before either is touched, so no connection arrives and no port clash is reported.
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');

let dir: string;
let api: Server;
let taken: Server;
let connections = 0;
let kubeconfig: string;
let metricsPort: number;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nodewright-controller-startup-'));
  api = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  const apiPort = await listen(api);
  taken = createServer((socket) => socket.destroy());
  metricsPort = await listen(taken);
  kubeconfig = join(dir, 'kubeconfig');
  await writeFile(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- cluster: {server: "https://127.0.0.1:${apiPort}", insecure-skip-tls-verify: true}`,
      '  name: c',
      'contexts:',
      '- context: {cluster: c, user: u}',
      '  name: c',
      'current-context: c',
      'users:',
      '- name: u',
      '  user: {token: t}',
    ].join('\n'),
  );
});

afterAll(async () => {
  await new Promise((resolve) => api.close(resolve));
  await new Promise((resolve) => taken.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** Runs `nodewright controller ARGS` with the counting API server and the taken metrics port. */
function controller(
  args: readonly string[],
  options: { kubeconfig?: string; env?: Record<string, string> } = {},
): Promise<Run> {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run pnpm build first`);
  const argv = [
    bin,
    'controller',
    ...args,
    '--kubeconfig',
    options.kubeconfig ?? kubeconfig,
    '--metrics-port',
    String(metricsPort),
    '--health-port',
    '0',
  ];
  return new Promise((resolve, reject) => {
    // Asynchronous, so the counting server in this process can answer while it runs.
    const child = spawn(process.execPath, argv, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

/** The JSON log lines on stdout. */
function logLines(out: string): Array<{ level: string; message: string; reason?: string }> {
  return out
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { level: string; message: string; reason?: string });
}

/** Exit 1, the message on stderr, the same at ERROR in the log, and nothing started. */
function expectRefusedAtOnce(run: Run, message: string): void {
  expect(run.err).toBe(`nodewright controller: ${message}\n`);
  expect(run.code).toBe(1);
  expect(logLines(run.out)).toEqual([expect.objectContaining({ level: 'ERROR', reason: message })]);
  expect(connections).toBe(0);
}

describe('nodewright controller refuses bad settings before anything starts', () => {
  it('aws without region', async () => {
    expectRefusedAtOnce(
      await controller(['--provider', 'aws']),
      'aws provider: setting region is required (e.g. --set region=us-west-2)',
    );
  });

  it('aws with an endpoint that is not a URL', async () => {
    expectRefusedAtOnce(
      await controller(['--provider', 'aws', '--set', 'region=us-east-1', '--set', 'endpoint=ec2 local']),
      'aws provider: setting endpoint "ec2 local" is not a URL',
    );
  });

  it('aws with half of the static credentials', async () => {
    expectRefusedAtOnce(
      await controller(['--provider', 'aws', '--set', 'region=us-east-1'], {
        env: { NODEWRIGHT_SETTING_ACCESS_KEY_ID: 'AKIA' },
      }),
      'aws provider: settings accessKeyId and secretAccessKey go together; set both or neither',
    );
  });

  it('a credential on the command line is a usage error saying which variable to use', async () => {
    const run = await controller([
      '--provider',
      'aws',
      '--set',
      'region=us-east-1',
      '--set',
      'secretAccessKey=s3cr3t',
    ]);
    expect(run.code).toBe(2);
    expect(run.err.split('\n')[0]).toBe(
      'nodewright controller: aws setting secretAccessKey holds a credential: set it in the environment (NODEWRIGHT_SETTING_SECRET_ACCESS_KEY for secretAccessKey), never with --set, where any process on the node can read it',
    );
    expect(run.out).toBe('');
    expect(connections).toBe(0);
  });

  it("takes Karpenter's variables for flags not given (LOG_FORMAT=text, LOG_LEVEL)", async () => {
    const run = await controller(['--provider', 'aws'], { env: { LOG_FORMAT: 'text', LOG_LEVEL: 'warn' } });
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/^\S+Z ERROR start-up failed reason="aws provider: setting region is required/);
  });

  it('kwok with a malformed number and a malformed duration', async () => {
    expectRefusedAtOnce(
      await controller(['--provider', 'kwok', '--set', 'spotInterruptionsPerHour=lots']),
      'kwok provider: setting spotInterruptionsPerHour: "lots" is not a non-negative number',
    );
    expectRefusedAtOnce(
      await controller(['--provider', 'kwok', '--set', 'interruptionNotice=soon']),
      'kwok provider: setting interruptionNotice: "soon" is not a duration such as 30s, 2m or 1h',
    );
  });

  it('an unknown setting key is a usage error naming the key meant', async () => {
    const run = await controller(['--provider', 'aws', '--set', 'regoin=us-east-1']);
    expect(run.code).toBe(2);
    expect(run.err.split('\n')[0]).toBe(
      'nodewright controller: unknown aws setting regoin (did you mean region?); known: accessKeyId, caBundle, clusterEndpoint, endpoint, interruptionQueue, kubernetesVersion, pricingRegion, region, secretAccessKey, sessionToken',
    );
    expect(run.out).toBe('');
    expect(connections).toBe(0);
  });

  it('a kubeconfig that cannot be read, without the errno code', async () => {
    const missing = join(dir, 'missing');
    expectRefusedAtOnce(
      await controller(['--provider', 'kwok'], { kubeconfig: missing }),
      `cannot load kubeconfig ${missing}: no such file or directory`,
    );
  });

  it('logs a start-up failure after the checks at ERROR too', async () => {
    // Good settings: the servers start, and the taken metrics port ends the start-up.
    const run = await controller(['--provider', 'kwok']);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^nodewright controller: .*\b(EADDRINUSE|address already in use)\b/);
    const errors = logLines(run.out).filter((l) => l.level === 'ERROR');
    expect(errors).toEqual([expect.objectContaining({ message: 'operator failed' })]);
    expect(errors[0]?.reason).toMatch(/^start-up failed: /);
  });
});
