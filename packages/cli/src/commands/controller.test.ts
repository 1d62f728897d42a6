import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import { kubeConfigFromFile } from '@nodewright/core/kube';
import type { ProviderPlugin } from '@nodewright/core/operator';
import { FakeCloudProvider } from '@nodewright/core/testing';
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../args.js';
import { UsageError } from '../command.js';
import { main } from '../main.js';
import type { CliServices } from '../services.js';
import { fakeIo } from '../testing/fake-io.js';
import { type ControllerRuntime, createControllerCommand } from './controller.js';

const plugin: ProviderPlugin = {
  name: 'fake',
  kinds: [],
  settings: { region: 'The region.' },
  create: async () => ({ cloudProvider: new FakeCloudProvider(), controllers: [], nodeClassTypes: [] }),
};

function runtime(loaded: string[]): ControllerRuntime {
  return {
    clock: new SystemClock(),
    timers: new SystemTimers(),
    kubeconfigEnv: () => '/from/env',
    defaultIdentity: () => 'test_00000000',
    loadKubeConfig: async (path) => {
      loaded.push(String(path));
      throw new Error(`ENOENT: no such file or directory, open '${path}'`);
    },
    onShutdownSignal: () => () => {},
  };
}

/** Runs the command as main would: parsed arguments, UsageError -> 2. */
async function exec(argv: string[]) {
  const loaded: string[] = [];
  const command = createControllerCommand({
    providers: { fake: plugin, other: { ...plugin, name: 'other', settings: {} } },
    runtime: () => runtime(loaded),
  });
  const io = fakeIo('/');
  let code: number;
  try {
    code = await command.run(parseCommandArgs(argv, command.options), { io, services: {} as CliServices });
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(err.message);
    code = 2;
  }
  return { code, io, command, loaded };
}

describe('nodewright controller', () => {
  it('is registered, and its help lists the providers and their settings', async () => {
    const io = fakeIo('/');
    expect(await main(['controller', '--help'], io)).toBe(0);
    expect(io.out()).toContain('usage: nodewright controller --provider aws|azure|gcp|kwok');
    const { command } = await exec(['--provider', 'fake', '--set', 'region=x']);
    expect(command.help).toContain('Cloud provider: fake, other.');
    expect(command.help).toMatch(/fake:\n {4}region +The region\./);
    expect(command.help).toContain('other: no settings');
  });

  it('an unknown provider is a usage error listing the known ones', async () => {
    const { code, io, loaded } = await exec(['--provider', 'nocloud']);
    expect(code).toBe(2);
    expect(io.err()).toBe("unknown provider 'nocloud' (known: fake, other)");
    expect(loaded).toEqual([]);
  });

  it('an unknown provider setting is a usage error listing the known keys', async () => {
    const { code, io } = await exec(['--provider', 'fake', '--set', 'zone=a', '--set', 'region=b']);
    expect(code).toBe(2);
    expect(io.err()).toBe('unknown fake setting zone; known: region');
  });

  it('an unknown provider setting names the key most likely meant', async () => {
    const { code, io, loaded } = await exec(['--provider', 'fake', '--set', 'regon=a']);
    expect(code).toBe(2);
    expect(io.err()).toBe('unknown fake setting regon (did you mean region?); known: region');
    expect(loaded).toEqual([]);
  });

  it("checks the provider's settings before loading the kubeconfig (exit 1)", async () => {
    const checked = createControllerCommand({
      providers: {
        fake: {
          ...plugin,
          checkSettings: (settings) => {
            if (settings.region === undefined) throw new Error('setting region is required');
          },
        },
      },
      runtime: () => runtime(loaded),
    });
    const loaded: string[] = [];
    const io = fakeIo('/');
    const code = await checked.run(parseCommandArgs(['--provider', 'fake'], checked.options), {
      io,
      services: {} as CliServices,
    });
    expect(code).toBe(1);
    expect(loaded).toEqual([]);
    expect(io.err()).toBe('nodewright controller: fake provider: setting region is required\n');
    const log = JSON.parse(io.out()) as { level: string; reason: string };
    expect(log).toMatchObject({ level: 'ERROR', reason: 'fake provider: setting region is required' });
  });

  it('a kubeconfig that cannot be loaded is a start-up error naming it (exit 1)', async () => {
    const { code, io, loaded } = await exec(['--provider', 'fake']);
    expect(code).toBe(1);
    expect(loaded).toEqual(['/from/env']);
    expect(io.err()).toBe(
      'nodewright controller: cannot load kubeconfig /from/env: no such file or directory\n',
    );
  });

  it('bad flag values exit 2 through main', async () => {
    const io = fakeIo('/');
    expect(await main(['controller', '--provider', 'kwok', '--leader-elect', 'maybe'], io)).toBe(2);
    expect(io.err()).toContain("--leader-elect must be true or false, not 'maybe'");
  });
  const AnyFreePorts = ['--metrics-port', '0', '--health-port', '0'];

  /** An "API server" that accepts connections and never answers (not even the TLS handshake). */
  async function silentApiServer() {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const dir = await mkdtemp(join(tmpdir(), 'nodewright-controller-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await writeFile(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'c', cluster: { server: `https://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } },
        ],
        users: [{ name: 'u', user: { token: 't' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    let signal: ((name: string) => void) | undefined;
    const command = createControllerCommand({
      providers: { fake: plugin },
      host: '127.0.0.1',
      runtime: () => ({
        ...runtime([]),
        loadKubeConfig: (path) => kubeConfigFromFile(String(path)),
        onShutdownSignal: (handler) => {
          signal = handler;
          return () => (signal = undefined);
        },
      }),
    });
    const run = (extra: string[], io: ReturnType<typeof fakeIo>) =>
      command.run(
        parseCommandArgs(
          ['--provider', 'fake', '--kubeconfig', kubeconfig, ...AnyFreePorts, ...extra],
          command.options,
        ),
        { io, services: {} as CliServices },
      );
    return {
      sockets,
      run,
      signal: (name: string) => signal?.(name),
      close: async () => {
        for (const s of sockets) s.destroy();
        silent.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }

  it('a signal ends the run with 0 even while start-up hangs on an API server that never answers', async () => {
    const server = await silentApiServer();
    const io = fakeIo('/');
    try {
      const running = server.run([], io);
      const deadline = Date.now() + 10_000;
      while (!io.out().includes('"serving health"') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      expect(server.sockets.length).toBeGreaterThan(0);
      server.signal('SIGTERM');
      expect(await running).toBe(0);
      expect(io.out()).toContain('"message":"shutting down"');
      expect(io.err()).toBe('');
    } finally {
      await server.close();
    }
  });

  it('--kube-request-timeout bounds each API server call: start-up fails naming the call (exit 1)', async () => {
    const server = await silentApiServer();
    const io = fakeIo('/');
    try {
      const began = performance.now();
      const code = await server.run(['--kube-request-timeout', '300ms'], io);
      const tookMs = performance.now() - began;
      expect(code).toBe(1);
      expect(io.err()).toMatch(
        /^nodewright controller: .*(apply|get) customresourcedefinitions \S+: no answer from the API server within 0\.3 s\n$/,
      );
      // The CRD install's first call gave up at its deadline instead of hanging until a signal.
      expect(tookMs).toBeLessThan(10_000);
    } finally {
      await server.close();
    }
  });
});
