import type { ProviderPlugin } from '@nodewright/core/operator';
import { FakeCloudProvider } from '@nodewright/core/testing';
import { describe, expect, it } from 'vitest';
import type { ControllerRuntime } from './commands/controller.js';
import { providerLoaders } from './commands/provider-loaders.js';
import { controllerMain } from './controller-main.js';
import { main } from './main.js';
import { fakeIo } from './testing/fake-io.js';

function fakePlugin(name: string): ProviderPlugin {
  return {
    name,
    kinds: [],
    settings: { region: 'The region.' },
    create: async () => ({ cloudProvider: new FakeCloudProvider(), controllers: [], nodeClassTypes: [] }),
  };
}

/** Loaders of two fake providers that record which were loaded. */
function recordingLoaders() {
  const loaded: string[] = [];
  const loader = (name: string) => async () => {
    loaded.push(name);
    return fakePlugin(name);
  };
  return { loaded, loaders: { alpha: loader('alpha'), beta: loader('beta') } };
}

/** A runtime whose kubeconfig never loads, so a run ends right after the provider is chosen. */
function failingRuntime(): ControllerRuntime {
  return {
    clock: { now: () => 0 },
    timers: { after: () => () => {} },
    kubeconfigEnv: () => undefined,
    defaultIdentity: () => 'test_00000000',
    loadKubeConfig: async () => {
      throw new Error('no kubeconfig here');
    },
    onShutdownSignal: () => () => {},
  } as unknown as ControllerRuntime;
}

describe('controllerMain', () => {
  it('loads only the provider --provider names', async () => {
    const { loaded, loaders } = recordingLoaders();
    const io = fakeIo('/');
    const code = await controllerMain(['--provider', 'beta'], io, { loaders, runtime: failingRuntime });
    expect(code).toBe(1);
    expect(io.err()).toContain('cannot load kubeconfig');
    expect(loaded).toEqual(['beta']);
  });

  it('loads every provider for help, for an unknown provider and for a malformed line', async () => {
    for (const argv of [['--help'], ['--provider', 'gamma'], ['--provider'], []]) {
      const { loaded, loaders } = recordingLoaders();
      await controllerMain(argv, fakeIo('/'), { loaders, runtime: failingRuntime });
      expect(loaded.sort(), argv.join(' ')).toEqual(['alpha', 'beta']);
    }
  });

  it('checks settings against the chosen provider and names every provider in usage errors', async () => {
    const { loaders } = recordingLoaders();
    const io = fakeIo('/');
    const code = await controllerMain(['--provider', 'alpha', '--set', 'zone=a'], io, {
      loaders,
      runtime: failingRuntime,
    });
    expect(code).toBe(2);
    expect(io.err()).toContain('unknown alpha setting zone (known: region)');
    expect(io.err()).toContain('usage: nodewright controller --provider alpha|beta [options]');
  });

  it('prints what main prints for help and usage errors, with the real providers', async () => {
    for (const argv of [['--help'], ['--provider', 'nope'], ['--provider', 'kwok', '--set', 'nope=1'], []]) {
      const viaMain = fakeIo('/');
      const direct = fakeIo('/');
      const codeViaMain = await main(['controller', ...argv], viaMain);
      const code = await controllerMain(argv, direct);
      expect(code, argv.join(' ')).toBe(codeViaMain);
      expect(direct.out(), argv.join(' ')).toBe(viaMain.out());
      expect(direct.err(), argv.join(' ')).toBe(viaMain.err());
    }
  });

  it('has a loader for every provider, each returning the plugin of that name', async () => {
    for (const [name, load] of Object.entries(providerLoaders)) expect((await load()).name).toBe(name);
  });
});
