import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import { ClientNodeCluster, kubeConfigFromFile } from '@nodewright/core/kube';
import { createLogger, Leases, microTime } from '@nodewright/core/operator';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ControllerNodeFlags } from '../operator/node-flags.js';

// The built CLI, started as the e2e suite and a Deployment start it.
const root = fileURLToPath(new URL('../../../../', import.meta.url));
const bin = join(root, 'packages', 'cli', 'dist', 'bin.js');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Started {
  readonly child: ChildProcess;
  readonly lines: Record<string, unknown>[];
  readonly stderr: () => string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(args: string[], env: NodeJS.ProcessEnv = process.env): Started {
  if (!existsSync(bin)) throw new Error(`${bin} does not exist: run pnpm build first`);
  const child = spawn(process.execPath, [bin, 'controller', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Record<string, unknown>[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    for (const part of parts) if (part !== '') lines.push(JSON.parse(part));
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, lines, stderr: () => stderr, exit };
}

async function line(started: Started, message: string, timeoutMs: number): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = started.lines.find((l) => l.message === message);
    if (found !== undefined) return found;
    if (Date.now() > deadline || started.child.exitCode !== null) {
      throw new Error(`no "${message}" log line within ${timeoutMs} ms; stderr: ${started.stderr()}`);
    }
    await sleep(100);
  }
}

describe('nodewright controller (built bin.js, kwok provider)', () => {
  const id = `cli-it-${randomBytes(3).toString('hex')}`;
  let kubeconfig: string;
  let cluster: ClientNodeCluster;
  const children: Started[] = [];

  beforeAll(async () => {
    kubeconfig = inject('nodewrightCluster').kubeconfigPath;
    cluster = new ClientNodeCluster({
      kubeConfig: await kubeConfigFromFile(kubeconfig),
      fieldManager: 'cli-it',
      logger: createLogger({ level: 'silent' }),
      clock: new SystemClock(),
      timers: new SystemTimers(),
    });
  });

  afterAll(async () => {
    for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    await cluster.delete(Leases, { namespace: 'kube-system', name: id }).catch(() => undefined);
  });

  it('serves health and metrics on the logged ports, leads, answers /readyz, and exits 0 on SIGTERM releasing the Lease', async () => {
    const identity = `${id}-a`;
    const started = start([
      '--provider',
      'kwok',
      '--kubeconfig',
      kubeconfig,
      '--metrics-port',
      '0',
      '--health-port',
      '0',
      '--leader-election-id',
      id,
      '--identity',
      identity,
    ]);
    children.push(started);
    const health = Number((await line(started, 'serving health', 30_000)).port);
    const metrics = Number((await line(started, 'serving metrics', 30_000)).port);
    expect(health).toBeGreaterThan(0);
    expect(metrics).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${health}/healthz`)).status).toBe(200);
    if (process.platform === 'linux') {
      // It replaced itself (same pid, so signals still reach it) with a node under its heap flags.
      const cmdline = readFileSync(`/proc/${started.child.pid}/cmdline`, 'utf8').split('\0');
      expect(cmdline).toEqual(expect.arrayContaining([...ControllerNodeFlags, bin, 'controller']));
    }
    expect(await line(started, 'became leader', 30_000)).toMatchObject({ identity });
    const deadline = Date.now() + 30_000;
    let ready = 0;
    while (Date.now() < deadline && ready !== 200) {
      ready = (await fetch(`http://127.0.0.1:${health}/readyz`)).status;
      if (ready !== 200) await sleep(200);
    }
    expect(ready).toBe(200);
    const body = await (await fetch(`http://127.0.0.1:${metrics}/metrics`)).text();
    expect(body).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(body).toContain('# TYPE karpenter_');
    expect((await cluster.get(Leases, { namespace: 'kube-system', name: id })).spec?.holderIdentity).toBe(
      identity,
    );

    started.child.kill('SIGTERM');
    const exit = await Promise.race([started.exit, sleep(40_000).then(() => 'timeout' as const)]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(started.lines.map((l) => l.message)).toEqual(
      expect.arrayContaining([
        'shutting down',
        'stopped controllers',
        'released leadership',
        'operator stopped',
      ]),
    );
    expect((await cluster.get(Leases, { namespace: 'kube-system', name: id })).spec?.holderIdentity).toBe('');
  });

  it('a second replica with --install-crds=false checks the CRDs and stands by while the first leads', async () => {
    const common = ['--provider', 'kwok', '--metrics-port', '0', '--health-port', '0'];
    const first = start([
      ...common,
      '--kubeconfig',
      kubeconfig,
      '--leader-election-id',
      id,
      '--identity',
      `${id}-1`,
    ]);
    children.push(first);
    await line(first, 'became leader', 30_000);
    // This one finds its kubeconfig in $KUBECONFIG: the environment survives the re-execution.
    const second = start(
      [...common, '--leader-election-id', id, '--identity', `${id}-2`, '--install-crds', 'false'],
      { ...process.env, KUBECONFIG: kubeconfig },
    );
    children.push(second);
    expect(await line(second, 'waiting for leadership', 30_000)).toMatchObject({
      identity: `${id}-2`,
      holder: `${id}-1`,
    });
    expect(second.lines.some((l) => l.message === 'applied CustomResourceDefinition')).toBe(false);
    first.child.kill('SIGTERM');
    expect(await first.exit).toEqual({ code: 0, signal: null });
    expect(await line(second, 'became leader', 15_000)).toMatchObject({ identity: `${id}-2` });
    second.child.kill('SIGINT');
    expect(await second.exit).toEqual({ code: 0, signal: null });
  });

  it('refuses to start beside a live Karpenter, and starts when told to, from environment variables alone', async () => {
    const karpenterLease = `${id}-karpenter`;
    await cluster.create(Leases, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: karpenterLease, namespace: 'kube-system' },
      spec: {
        holderIdentity: 'karpenter-5d8f7-abcde',
        leaseDurationSeconds: 60,
        renewTime: microTime(Date.now()),
      },
    });
    try {
      const env = {
        ...process.env,
        KUBECONFIG: kubeconfig,
        METRICS_PORT: '0',
        HEALTH_PROBE_PORT: '0',
        LEADER_ELECTION_NAME: id,
        NODEWRIGHT_KARPENTER_LEASE: `kube-system/${karpenterLease}`,
      };
      const refused = start(['--provider', 'kwok', '--identity', `${id}-k1`], env);
      children.push(refused);
      expect(await refused.exit).toEqual({ code: 1, signal: null });
      expect(refused.stderr()).toMatch(
        new RegExp(
          `an active Karpenter controller holds Lease kube-system/${karpenterLease} \\(holder karpenter-5d8f7-abcde, renewed \\d+ s ago\\)`,
        ),
      );
      expect(refused.lines.some((l) => l.message === 'became leader')).toBe(false);

      const beside = start(['--provider', 'kwok', '--identity', `${id}-k2`, '--bind-address', '127.0.0.1'], {
        ...env,
        NODEWRIGHT_RUN_BESIDE_KARPENTER: 'true',
      });
      children.push(beside);
      const health = Number((await line(beside, 'serving health', 30_000)).port);
      await line(beside, 'became leader', 30_000);
      expect((await fetch(`http://127.0.0.1:${health}/healthz`)).status).toBe(200);
      beside.child.kill('SIGTERM');
      expect(await beside.exit).toEqual({ code: 0, signal: null });
    } finally {
      await cluster.delete(Leases, { namespace: 'kube-system', name: karpenterLease }).catch(() => undefined);
    }
  });
});
