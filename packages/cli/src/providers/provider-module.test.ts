import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ProviderPlugin } from '@nodewright/core/plugin';
import { kwokCatalog } from '@nodewright/kwok';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../main.js';
import { fakeIo, tempDir } from '../testing/fake-io.js';
import { pluginOfModule, resolveProviderModule } from './provider-module.js';
import { splitProviderModuleArgs } from './provider-module-args.js';

/** An out-of-tree provider as a package would export it: one NodeClass kind and one catalog. */
const myCloud: ProviderPlugin = {
  name: 'mycloud',
  kinds: [
    {
      apiVersion: 'mycloud.example.com/v1',
      kind: 'MyNodeClass',
      namespaced: false,
      schema: z.strictObject({
        apiVersion: z.literal('mycloud.example.com/v1'),
        kind: z.literal('MyNodeClass'),
        metadata: z.object({ name: z.string().min(1) }),
        spec: z.strictObject({ image: z.string().min(1) }),
      }),
      crd: { group: 'mycloud.example.com', version: 'v1', plural: 'mynodeclasses', singular: 'mynodeclass' },
    },
  ],
  settings: {},
  catalogs: [{ name: 'mycloud', description: 'my cloud types', catalog: () => kwokCatalog() }],
  create: async () => {
    throw new Error('not run in these tests');
  },
};

describe('--provider-module on the manifest commands', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let imported: string[];
  const importer = async (url: string) => {
    imported.push(url);
    return { default: myCloud };
  };
  const run = async (argv: string[]) => {
    const io = fakeIo(dir);
    const code = await main(argv, io, undefined, { importer });
    return { code, out: io.out(), err: io.err() };
  };

  beforeAll(async () => {
    ({ dir, remove } = await tempDir());
    await writeFile(
      join(dir, 'mycloud.mjs'),
      '// stands in for the package; the importer supplies its exports\n',
    );
    await writeFile(
      join(dir, 'class.yaml'),
      'apiVersion: mycloud.example.com/v1\nkind: MyNodeClass\nmetadata: {name: default}\nspec: {image: img-1}\n',
    );
    const examples = fileURLToPath(new URL('../../../../examples/schedule/', import.meta.url));
    await copyFile(join(examples, 'pods.yaml'), join(dir, 'pods.yaml'));
    await copyFile(join(examples, 'nodepools.yaml'), join(dir, 'pools.yaml'));
  });
  afterAll(() => remove());

  it('validate knows the module provider kinds only with the flag', async () => {
    imported = [];
    const without = await run(['validate', '-f', 'class.yaml', '--strict']);
    expect(without.code).toBe(1);
    expect(without.err).toContain('MyNodeClass');
    const withModule = await run(['validate', '-f', 'class.yaml', '--provider-module', './mycloud.mjs']);
    expect(withModule.err).toBe('');
    expect(withModule.out).toBe('OK MyNodeClass/default\n');
    expect(withModule.code).toBe(0);
    expect(imported).toEqual([pathToFileURL(join(dir, 'mycloud.mjs')).href]);
  });

  it('crds prints the module provider CRD beside the built-in ones', async () => {
    const { code, out } = await run(['crds', '--provider-module=./mycloud.mjs']);
    expect(code).toBe(0);
    expect(out).toContain('name: mynodeclasses.mycloud.example.com');
    expect(out).toContain('name: kwoknodeclasses.karpenter.kwok.sh');
  });

  it('schedule --catalog picks a catalog the module provider ships', async () => {
    const without = await run(['schedule', '-f', 'pods.yaml', '-f', 'pools.yaml', '--catalog', 'mycloud']);
    expect(without.code).toBe(1);
    expect(without.err).toContain(
      'no catalog is named mycloud (known: aws, aws:us-east-1, aws:us-gov-east-1, aws:us-gov-west-1, azure, azure:eastus, azure:westus2, gcp, gcp:us-central1, gcp:us-east1, kwok)',
    );
    const withModule = await run([
      '--provider-module',
      './mycloud.mjs',
      'schedule',
      '-f',
      'pods.yaml',
      '-f',
      'pools.yaml',
      '--catalog',
      'mycloud',
      '-o',
      'json',
    ]);
    expect(withModule.err).toBe('');
    expect(withModule.code).toBe(0);
    expect(JSON.parse(withModule.out).summary.nodeClaims).toBeGreaterThan(0);
  });

  it('names an unresolvable module and where it was looked up from', async () => {
    const { code, err } = await run(['validate', '-f', 'class.yaml', '--provider-module', '@nope/missing']);
    expect(code).toBe(1);
    expect(err).toContain(`nodewright: --provider-module @nope/missing: cannot be resolved from ${dir}`);
  });
});

describe('resolveProviderModule', () => {
  it('resolves a package name through node_modules from the directory, as node would', () => {
    const cliDir = fileURLToPath(new URL('../..', import.meta.url));
    expect(resolveProviderModule('@nodewright/kwok', cliDir)).toMatch(
      /^file:.*\/providers\/kwok\/(dist\/index\.js|src\/index\.ts)$/,
    );
  });

  it('resolves a package folder through its own exports, and a plain folder through index.js', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'nodewright-provider-folder-'));
    try {
      await mkdir(join(dir, 'pkg/lib'), { recursive: true });
      await writeFile(
        join(dir, 'pkg/package.json'),
        JSON.stringify({ name: 'folder-provider', type: 'module', exports: { '.': './lib/entry.js' } }),
      );
      await writeFile(join(dir, 'pkg/lib/entry.js'), 'export default {};\n');
      expect(resolveProviderModule('.', join(dir, 'pkg'))).toBe(
        pathToFileURL(join(dir, 'pkg/lib/entry.js')).href,
      );
      expect(resolveProviderModule('./pkg', dir)).toBe(pathToFileURL(join(dir, 'pkg/lib/entry.js')).href);
      await mkdir(join(dir, 'plain'));
      await writeFile(join(dir, 'plain/index.js'), 'export default {};\n');
      expect(resolveProviderModule('./plain', dir)).toBe(pathToFileURL(join(dir, 'plain/index.js')).href);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('pluginOfModule', () => {
  it('takes the default export and checks its shape', () => {
    expect(pluginOfModule({ default: myCloud }, 'x')).toBe(myCloud);
    expect(() => pluginOfModule({ myCloud }, 'pkg')).toThrow('pkg: has no default export');
    expect(() => pluginOfModule({ default: { ...myCloud, settings: [] } }, 'pkg')).toThrow(
      'pkg: not a nodewright provider plug-in object: settings: must be an object',
    );
  });
});

describe('splitProviderModuleArgs', () => {
  it('takes both spellings out of the line, and leaves what follows -- alone', () => {
    expect(
      splitProviderModuleArgs([
        'validate',
        '--provider-module',
        'a',
        '-f',
        'x',
        '--provider-module=b',
        '--',
        '--provider-module',
        'c',
      ]),
    ).toEqual({
      modules: ['a', 'b'],
      rest: ['validate', '-f', 'x', '--', '--provider-module', 'c'],
    });
    expect(() => splitProviderModuleArgs(['--provider-module=', 'x'])).toThrow('must not be empty');
  });
});
