import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { crdFileName, generateCrd, renderCrdYaml, structuralProblems } from '@nodewright/core/apis';
import { expect, test } from 'vitest';
import { nodeClassKind } from '../src/apis/nodeclass.js';

// The CRD in crds/ must be what the schema generates; `UPDATE_CRDS=1 npm test` rewrites it.
test('the NodeClass CRD in crds/ is up to date', () => {
  const url = new URL(`../crds/${crdFileName(nodeClassKind)}`, import.meta.url);
  const rendered = renderCrdYaml(nodeClassKind);
  if (process.env.UPDATE_CRDS === '1') writeFileSync(url, rendered);
  const committed = existsSync(url) ? readFileSync(url, 'utf8') : '';
  expect(committed === rendered, 'crds/ is stale: run UPDATE_CRDS=1 npm test').toBe(true);
});

test('the NodeClass CRD is structural', () => {
  const [version] = generateCrd(nodeClassKind).spec.versions;
  expect(structuralProblems(version!.schema.openAPIV3Schema)).toEqual([]);
});
