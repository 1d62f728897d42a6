import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { fakeIo, tempDir } from '../testing/fake-io.js';
import { fixtureServices } from '../testing/fixture-services.js';
import { packageVersion } from '../version.js';

let dir: string;
let remove: () => Promise<void>;
beforeEach(async () => {
  ({ dir, remove } = await tempDir());
});
afterEach(async () => {
  await remove();
});

async function run(argv: string[]) {
  const io = fakeIo(dir);
  const code = await main(argv, io, fixtureServices);
  return { code, out: io.out(), err: io.err() };
}

describe('nodewright new provider', () => {
  it('writes the package into ./NAME, lists the files and the next steps', async () => {
    const { code, out, err } = await run(['new', 'provider', 'my-cloud']);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain(`${join(dir, 'my-cloud')}/src/plugin.ts\n`);
    expect(out).toContain('nodewright-provider-my-cloud written. Next:');
    expect((await readdir(join(dir, 'my-cloud'))).sort()).toEqual(
      [
        '.gitignore',
        'README.md',
        'crds',
        'package.json',
        'src',
        'test',
        'tsconfig.build.json',
        'tsconfig.json',
        'vitest.config.ts',
      ].sort(),
    );
    const manifest = JSON.parse(await readFile(join(dir, 'my-cloud/package.json'), 'utf8'));
    expect(manifest.dependencies['@nodewright/core']).toBe(`^${packageVersion()}`);
  });

  it('writes into --dir, and refuses a folder that is not empty (exit 1, naming it)', async () => {
    expect((await run(['new', 'provider', 'x', '--dir', 'out/x'])).code).toBe(0);
    const again = await run(['new', 'provider', 'x', '--dir', 'out/x']);
    expect(again.code).toBe(1);
    expect(again.err).toContain(`${join(dir, 'out/x')} is not empty`);
  });

  it('is a usage error (exit 2) for another kind of thing, a bad name or a missing name', async () => {
    const other = await run(['new', 'controller', 'x']);
    expect(other.code).toBe(2);
    expect(other.err).toContain('cannot make a new "controller"; only "provider"');
    const bad = await run(['new', 'provider', 'My_Cloud']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('provider name "My_Cloud": use a lower-case letter');
    expect((await run(['new', 'provider'])).code).toBe(2);
  });
});
