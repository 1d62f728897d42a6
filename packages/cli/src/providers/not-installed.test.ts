import { describe, expect, it } from 'vitest';
import type { ControllerRuntime } from '../commands/controller.js';
import { controllerMain } from '../controller-main.js';
import { main } from '../main.js';
import { fakeIo, tempDir } from '../testing/fake-io.js';
import { BuiltinProviders, type ProviderSource } from './builtin-providers.js';
import { isPackageNotInstalled, notInstalledHint } from './not-installed.js';
import { loadProviderSet } from './provider-set.js';

// The CLI lists the cloud providers as optional peers: an install of @nodewright/cli alone has
// kwok only, and every command must still run, saying what to install when a cloud is asked for.

/** A built-in source whose package is really absent: Node's own resolution error, not a stand-in. */
function absent(name: string): ProviderSource {
  const specifier = `@nodewright/absent-${name}`;
  const entry = `${specifier}/plugin`;
  return { name, specifier, load: () => import(/* @vite-ignore */ entry) };
}

const kwok = BuiltinProviders.find((b) => b.name === 'kwok')!;

describe('isPackageNotInstalled', () => {
  it("recognises Node's error for a missing package, and only for that package", async () => {
    const entry = '@nodewright/absent-x/plugin';
    const error = await import(/* @vite-ignore */ entry).catch((e: unknown) => e);
    expect(isPackageNotInstalled(error, '@nodewright/absent-x')).toBe(true);
    expect(isPackageNotInstalled(error, '@nodewright/aws')).toBe(false);
    expect(isPackageNotInstalled(new TypeError('x is not a function'), '@nodewright/absent-x')).toBe(false);
  });
});

describe('notInstalledHint', () => {
  it('names the package to install for a built-in provider or one of its regional catalogs', () => {
    expect(notInstalledHint('aws')).toBe(
      '; the aws provider comes with @nodewright/aws, which is not installed (npm install @nodewright/aws)',
    );
    expect(notInstalledHint('gcp:us-east1', ['kwok'])).toContain('npm install @nodewright/gcp');
  });

  it('says nothing for a name no built-in provider has, or when the provider did load', () => {
    expect(notInstalledHint('ibm')).toBe('');
    expect(notInstalledHint('aws:mars-1', ['aws', 'aws:us-east-1', 'kwok'])).toBe('');
  });
});

describe('a CLI without the cloud providers installed', () => {
  const builtins = [kwok, absent('aws'), absent('gcp')];

  it('loads the providers that are there and lists the absent ones', async () => {
    const set = await loadProviderSet({ builtins, modules: [], cwd: '/' });
    expect(set.all.map((p) => p.name)).toEqual(['kwok']);
    expect(set.notInstalled).toEqual(['aws', 'gcp']);
  });

  it('still fails loudly on a provider package that is there but broken', async () => {
    const broken: ProviderSource = {
      name: 'aws',
      specifier: '@nodewright/aws',
      load: async () => {
        throw new TypeError('Cannot read properties of undefined');
      },
    };
    await expect(loadProviderSet({ builtins: [kwok, broken], modules: [], cwd: '/' })).rejects.toThrow(
      'Cannot read properties of undefined',
    );
  });

  it('schedules on the kwok catalog and names the package for --catalog aws', async () => {
    const { dir, remove } = await tempDir();
    try {
      const ok = fakeIo(dir);
      const pods = `${process.cwd()}/examples/schedule`;
      expect(
        await main(['schedule', '-f', pods, '--catalog', 'kwok', '-o', 'json'], ok, undefined, { builtins }),
      ).toBe(0);
      expect(JSON.parse(ok.out()).nodeClaims.length).toBeGreaterThan(0);

      const io = fakeIo(dir);
      expect(await main(['schedule', '-f', pods, '--catalog', 'aws'], io, undefined, { builtins })).toBe(1);
      expect(io.err()).toContain('no catalog is named aws (known: kwok)');
      expect(io.err()).toContain('npm install @nodewright/aws');
    } finally {
      await remove();
    }
  });

  it('runs a controller of an installed provider and names the package for an absent one', async () => {
    const io = fakeIo('/');
    // The provider is checked before anything starts; a runtime that cannot load a kubeconfig
    // makes any start attempt fail with a different message and exit status.
    const runtime = () =>
      ({
        kubeconfigEnv: () => undefined,
        defaultIdentity: () => 'test_00000000',
        loadKubeConfig: async () => {
          throw new Error('the controller must not start');
        },
      }) as unknown as ControllerRuntime;
    const code = await controllerMain(['--provider', 'gcp'], io, { builtins, runtime });
    expect(code).toBe(2);
    expect(io.err()).toContain("unknown provider 'gcp' (known: aws, kwok)");
    expect(io.err()).toContain('npm install @nodewright/gcp');
  });
});
