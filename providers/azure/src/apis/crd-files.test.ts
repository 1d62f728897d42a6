import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { crdFileName, generateCrd, renderCrdYaml, structuralProblems } from '@nodewright/core/apis';
import { expect, test } from 'vitest';
import { aksNodeClassKind } from './kind.js';

// The committed CRD must equal what the schema generates. `UPDATE_CRDS=1` rewrites it instead
// (see `pnpm crds:generate`).
test('the AKSNodeClass CRD is up to date', () => {
  const url = new URL(`../../crds/${crdFileName(aksNodeClassKind)}`, import.meta.url);
  const rendered = renderCrdYaml(aksNodeClassKind);
  if (process.env.UPDATE_CRDS === '1') writeFileSync(url, rendered);
  const committed = existsSync(url) ? readFileSync(url, 'utf8') : '';
  expect(committed === rendered, 'CRDs are stale: run `pnpm crds:generate`').toBe(true);
});

test('the AKSNodeClass CRD is structural and named as upstream, with its defaults', () => {
  const crd = generateCrd(aksNodeClassKind);
  expect(crdFileName(aksNodeClassKind)).toBe('karpenter.azure.com_aksnodeclasses.yaml');
  expect(crd.metadata.name).toBe('aksnodeclasses.karpenter.azure.com');
  expect(crd.spec.names).toMatchObject({
    kind: 'AKSNodeClass',
    plural: 'aksnodeclasses',
    shortNames: ['aksnc', 'aksncs'],
  });
  const [version] = crd.spec.versions;
  expect(version?.name).toBe('v1beta1');
  expect(version?.subresources).toEqual({ status: {} });
  expect(structuralProblems(version!.schema.openAPIV3Schema)).toEqual([]);
  const spec = (
    version!.schema.openAPIV3Schema.properties as Record<
      string,
      Record<string, Record<string, Record<string, unknown>>>
    >
  ).spec!;
  expect(spec.properties!.osDiskSizeGB).toMatchObject({ default: 128, minimum: 30, maximum: 2048 });
  expect(spec.properties!.imageFamily!.default).toBe('Ubuntu');
  expect(spec['x-kubernetes-validations']).toEqual([
    expect.objectContaining({ message: 'fipsMode FIPS needs imageFamily AzureLinux or Ubuntu2204' }),
  ]);
});
