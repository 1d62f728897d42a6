import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MaxProviderNameLength, providerNames } from './provider-names.js';
import { providerPackageJson, ScaffoldToolVersions } from './provider-package.js';
import { substitute } from './provider-template.js';
import { providerFiles, TargetNotEmptyError, writeFiles } from './write-provider.js';

const RepoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function generated(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'nodewright-scaffold-'));
  dirs.push(dir);
  await writeFiles(join(dir, name), await providerFiles(providerNames(name), '1.2.3'));
  return join(dir, name);
}

describe('the provider template', () => {
  it('substitutes every spelling of the name, the most specific first', () => {
    const names = providerNames('my-cloud');
    expect(substitute("'acmenodeclasses' AcmeNodeClass acme://z/i acme.example.com", names)).toBe(
      "'mycloudnodeclasses' MyCloudNodeClass my-cloud://z/i my-cloud.example.com",
    );
    // A name holding a placeholder is substituted once, not again.
    expect(substitute("'acmenodeclasses' Acme acme", providerNames('acme-cloud'))).toBe(
      "'acmecloudnodeclasses' AcmeCloud acme-cloud",
    );
  });

  it('writes the package with .gitignore, the CRD named for the provider, and no placeholder left', async () => {
    const files = await providerFiles(providerNames('my-cloud'), '1.2.3');
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '.gitignore',
        'README.md',
        'crds/my-cloud.example.com_mycloudnodeclasses.yaml',
        'package.json',
        'src/bin.ts',
        'src/index.ts',
        'test/provider-contract.test.ts',
        'test/cluster-e2e.test.ts',
        'vitest.config.ts',
      ]),
    );
    for (const file of files) expect(`${file.path}\n${file.text}`).not.toMatch(/acme/i);
  });

  // Names of the shortest and the longest length: Biome's formatting depends on line lengths.
  for (const name of ['q', 'a'.repeat(MaxProviderNameLength - 2).concat('-z')]) {
    it(`is formatted and lint-clean under the project's Biome config for the name ${name}`, async () => {
      const dir = await generated(name);
      const biome = spawnSync(
        join(RepoRoot, 'node_modules/.bin/biome'),
        ['check', `--config-path=${join(RepoRoot, 'biome.json')}`, '--vcs-enabled=false', dir],
        { encoding: 'utf8' },
      );
      expect(biome.status, `${biome.stdout}\n${biome.stderr}`).toBe(0);
    });
  }

  it('refuses to write into a folder that holds files, naming it', async () => {
    const dir = await generated('taken');
    await expect(writeFiles(dir, [])).rejects.toThrow(TargetNotEmptyError);
    await expect(writeFiles(dir, [])).rejects.toThrow(
      `${dir} is not empty (.gitignore, README.md, crds, ...)`,
    );
  });
});

describe('providerPackageJson', () => {
  it('depends on the nodewright packages at the CLI version and exposes the plug-in and the binary', () => {
    const manifest = JSON.parse(providerPackageJson(providerNames('my-cloud'), '1.2.3'));
    expect(manifest).toMatchObject({
      name: 'nodewright-provider-my-cloud',
      type: 'module',
      main: './dist/index.js',
      exports: { '.': { default: './dist/index.js' } },
      bin: { 'my-cloud-controller': './dist/bin.js' },
      dependencies: { '@nodewright/cli': '^1.2.3', '@nodewright/core': '^1.2.3' },
      devDependencies: { '@nodewright/conformance': '^1.2.3' },
    });
  });

  it('builds with the tool versions nodewright itself is built with', async () => {
    const root = JSON.parse(await readFile(join(RepoRoot, 'package.json'), 'utf8'));
    const core = JSON.parse(await readFile(join(RepoRoot, 'packages/core/package.json'), 'utf8'));
    expect(ScaffoldToolVersions).toEqual({
      '@types/node': root.devDependencies['@types/node'],
      typescript: root.devDependencies.typescript,
      vitest: root.devDependencies.vitest,
      zod: core.dependencies.zod,
    });
  });
});
