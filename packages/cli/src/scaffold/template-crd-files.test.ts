import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { crdFileName, renderCrdYaml } from '@nodewright/core/apis';
import { expect, test } from 'vitest';
import { nodeClassKind } from '../../templates/provider/src/apis/nodeclass.js';
import { ProviderTemplateDir } from './provider-template.js';

// The template ships its NodeClass CRD; it must be what the template's schema generates
// (`pnpm crds:generate` rewrites it with the repository's other CRDs).
test('the provider template CRD is up to date', () => {
  const url = new URL(`crds/${crdFileName(nodeClassKind)}`, ProviderTemplateDir);
  const rendered = renderCrdYaml(nodeClassKind);
  if (process.env.UPDATE_CRDS === '1') writeFileSync(url, rendered);
  const committed = existsSync(url) ? readFileSync(url, 'utf8') : '';
  expect(committed === rendered, 'CRDs are stale: run `pnpm crds:generate`').toBe(true);
});
