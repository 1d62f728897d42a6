import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProviderPlugin } from '@nodewright/core/operator';
import { FakeCloudProvider } from '@nodewright/core/testing';
import { describe, expect, it } from 'vitest';
import type { ControllerRuntime } from './commands/controller.js';
import { controllerMain } from './controller-main.js';
import { main } from './main.js';
import { BuiltinProviders, loadProviderSource, type ProviderSource } from './providers/index.js';
import { fakeIo, tempDir } from './testing/fake-io.js';

function fakePlugin(name: string): ProviderPlugin {
  return {
    name,
    kinds: [],
    settings: { region: 'The region.' },
    create: async () => ({ cloudProvider: new FakeCloudProvider(), controllers: [], nodeClassTypes: [] }),
  };
}

/** Two fake built-in providers that record which were loaded. */
function recordingLoaders() {
  const loaded: string[] = [];
  const source = (name: string): ProviderSource => ({
    name,
    specifier: `@fake/${name}`,
    load: async () => {
      loaded.push(name);
      return { default: fakePlugin(name) };
    },
  });
  return { loaded, builtins: [source('alpha'), source('beta')] };
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
    const { loaded, builtins } = recordingLoaders();
    const io = fakeIo('/');
    const code = await controllerMain(['--provider', 'beta'], io, { builtins, runtime: failingRuntime });
    expect(code).toBe(1);
    expect(io.err()).toContain('cannot load kubeconfig');
    expect(loaded).toEqual(['beta']);
  });

  it('loads every provider for help, for an unknown provider and for a malformed line', async () => {
    for (const argv of [['--help'], ['--provider', 'gamma'], ['--provider'], []]) {
      const { loaded, builtins } = recordingLoaders();
      await controllerMain(argv, fakeIo('/'), { builtins, runtime: failingRuntime });
      expect(loaded.sort(), argv.join(' ')).toEqual(['alpha', 'beta']);
    }
  });

  it('checks settings against the chosen provider and names every provider in usage errors', async () => {
    const { builtins } = recordingLoaders();
    const io = fakeIo('/');
    const code = await controllerMain(['--provider', 'alpha', '--set', 'zone=a'], io, {
      builtins,
      runtime: failingRuntime,
    });
    expect(code).toBe(2);
    expect(io.err()).toContain('unknown alpha setting zone; known: region');
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

  it('has a source for every built-in provider, each default-exporting the plugin of that name', async () => {
    expect(BuiltinProviders.map((b) => b.name)).toEqual(['kwok', 'aws', 'gcp', 'azure']);
    for (const source of BuiltinProviders) expect((await loadProviderSource(source)).name).toBe(source.name);
  });
});

describe('controllerMain --provider-module', () => {
  const moduleSource = (name: string) =>
    `export default { name: '${name}', kinds: [], settings: { zone: 'The zone.' }, create: async () => { throw new Error('not started in this test'); } };\n`;

  it('imports the module from the current directory and runs its provider without --provider, loading no built-in', async () => {
    const { dir, remove } = await tempDir();
    try {
      await writeFile(join(dir, 'my-provider.mjs'), moduleSource('mycloud'));
      const { loaded, builtins } = recordingLoaders();
      const io = fakeIo(dir);
      const argv = ['--provider-module', './my-provider.mjs', '--set', 'zone=a'];
      const code = await controllerMain(argv, io, { builtins, runtime: failingRuntime });
      expect(io.err()).toContain('cannot load kubeconfig');
      expect(code).toBe(1);
      expect(loaded).toEqual([]);
    } finally {
      await remove();
    }
  });

  it('lists the module provider in help with its settings, beside the built-in ones', async () => {
    const { dir, remove } = await tempDir();
    try {
      await writeFile(join(dir, 'p.mjs'), moduleSource('mycloud'));
      const { builtins } = recordingLoaders();
      const io = fakeIo(dir);
      expect(
        await controllerMain([`--provider-module=${join(dir, 'p.mjs')}`, '--help'], io, { builtins }),
      ).toBe(0);
      expect(io.out()).toContain('usage: nodewright controller --provider alpha|beta|mycloud [options]');
      expect(io.out()).toMatch(/ {2}mycloud:\n {4}zone +The zone\./);
      expect(io.out()).toContain('--provider-module PACKAGE|PATH');
    } finally {
      await remove();
    }
  });

  it('refuses a module that cannot be resolved, or whose default export is not a plug-in object, naming it', async () => {
    const { dir, remove } = await tempDir();
    try {
      await writeFile(join(dir, 'bad.mjs'), `export default { name: 'Bad Name', kinds: {} };\n`);
      const missing = fakeIo(dir);
      expect(await controllerMain(['--provider-module', './nope.mjs'], missing)).toBe(1);
      expect(missing.err()).toContain(
        `nodewright controller: --provider-module ./nope.mjs: cannot be resolved from ${dir}`,
      );
      const bad = fakeIo(dir);
      expect(await controllerMain(['--provider-module', './bad.mjs'], bad)).toBe(1);
      expect(bad.err()).toContain('./bad.mjs: not a nodewright provider plug-in object: name: must be');
      expect(bad.err()).toContain('create: must be a function');
      expect(bad.err()).toContain('kinds: must be an array');
      const noValue = fakeIo(dir);
      expect(await controllerMain(['--provider-module'], noValue)).toBe(2);
      expect(noValue.err()).toContain('option --provider-module needs a value');
    } finally {
      await remove();
    }
  });

  it('runs the providers a binary of its own passes (runController), and no built-in one', async () => {
    const { loaded, builtins } = recordingLoaders();
    const io = fakeIo('/');
    const code = await controllerMain(['--set', 'region=x'], io, {
      builtins,
      providers: [fakePlugin('own')],
      runtime: failingRuntime,
    });
    expect(io.err()).toContain('cannot load kubeconfig');
    expect(code).toBe(1);
    expect(loaded).toEqual([]);
    const help = fakeIo('/');
    await controllerMain(['--help'], help, { builtins, providers: [fakePlugin('own')] });
    expect(help.out()).toContain('usage: nodewright controller --provider own [options]');
  });
});
