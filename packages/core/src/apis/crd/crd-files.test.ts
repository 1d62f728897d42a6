import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { coreCrdKinds } from '../v1/kinds.js';
import { crdFileName } from './generate.js';
import { renderCrdYaml } from './render.js';

// The committed CRDs must equal what the schemas generate. `UPDATE_CRDS=1` rewrites them
// instead (see `pnpm crds:generate`).
const dir = new URL('../../../crds/', import.meta.url);

test.each(coreCrdKinds.map((k) => [crdFileName(k), k] as const))('%s is up to date', (file, kind) => {
  const url = new URL(file, dir);
  const rendered = renderCrdYaml(kind);
  if (process.env.UPDATE_CRDS === '1') writeFileSync(url, rendered);
  const committed = existsSync(url) ? readFileSync(url, 'utf8') : '';
  expect(committed === rendered, 'CRDs are stale: run `pnpm crds:generate`').toBe(true);
});
