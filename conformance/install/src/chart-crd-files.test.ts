import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { main } from '@nodewright/cli';
import { afterAll, beforeAll, expect, test } from 'vitest';

// The CRD chart ships `nodewright crds` as it is: its templates/ must hold exactly the files
// the command writes, byte for byte. `UPDATE_CRDS=1` rewrites them instead (`pnpm
// crds:generate` runs this file too, as its name matches `crd-files`).
const templates = fileURLToPath(new URL('../../../charts/nodewright-crd/templates/', import.meta.url));
let generated: string;

beforeAll(async () => {
  generated = await mkdtemp(join(tmpdir(), 'nw-chart-crds-'));
  const stderr: string[] = [];
  const code = await main(['crds', '--out', generated], {
    stdout: { write: () => true },
    stderr: { write: (chunk: string) => stderr.push(chunk) },
    stdin: new PassThrough(),
    cwd: generated,
  });
  expect(code, stderr.join('')).toBe(0);
});

afterAll(async () => {
  if (generated) await rm(generated, { recursive: true, force: true });
});

test('charts/nodewright-crd/templates holds exactly the CRDs `nodewright crds` writes', async () => {
  const files = (await readdir(generated)).sort();
  expect(files.length).toBeGreaterThanOrEqual(6);
  if (process.env.UPDATE_CRDS === '1') {
    for (const old of await readdir(templates)) await rm(join(templates, old));
    for (const file of files) await writeFile(join(templates, file), await readFile(join(generated, file)));
  }
  expect((await readdir(templates)).sort(), 'CRD chart is stale: run `pnpm crds:generate`').toEqual(files);
  for (const file of files) {
    const committed = await readFile(join(templates, file), 'utf8');
    const fresh = await readFile(join(generated, file), 'utf8');
    expect(committed === fresh, `${file} is stale: run \`pnpm crds:generate\``).toBe(true);
  }
});
