import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { crdFileName, generateCrd, renderCrdYaml, structuralProblems } from '@nodewright/core/apis';
import { expect, test } from 'vitest';
import { kwokNodeClassKind } from './kind.js';

// The committed CRD must equal what the schema generates. `UPDATE_CRDS=1` rewrites it instead.
test('the KWOKNodeClass CRD is up to date', () => {
  const url = new URL(`../../crds/${crdFileName(kwokNodeClassKind)}`, import.meta.url);
  const rendered = renderCrdYaml(kwokNodeClassKind);
  if (process.env.UPDATE_CRDS === '1') writeFileSync(url, rendered);
  const committed = existsSync(url) ? readFileSync(url, 'utf8') : '';
  expect(committed === rendered, 'CRDs are stale: run `pnpm crds:generate`').toBe(true);
});

test('the KWOKNodeClass CRD is structural, cluster-scoped and named as upstream', () => {
  const crd = generateCrd(kwokNodeClassKind);
  expect(crdFileName(kwokNodeClassKind)).toBe('karpenter.kwok.sh_kwoknodeclasses.yaml');
  expect(crd.metadata.name).toBe('kwoknodeclasses.karpenter.kwok.sh');
  expect(crd.spec.scope).toBe('Cluster');
  expect(crd.spec.names).toEqual({
    kind: 'KWOKNodeClass',
    listKind: 'KWOKNodeClassList',
    plural: 'kwoknodeclasses',
    singular: 'kwoknodeclass',
    shortNames: ['kwoknc', 'kwokncs'],
    categories: ['karpenter'],
  });
  const [version] = crd.spec.versions;
  expect(version?.name).toBe('v1alpha1');
  expect(version?.subresources).toEqual({ status: {} });
  expect(structuralProblems(version!.schema.openAPIV3Schema)).toEqual([]);
  const spec = (
    version!.schema.openAPIV3Schema.properties as Record<
      string,
      Record<string, Record<string, Record<string, unknown>>>
    >
  ).spec!;
  expect(spec.properties!.nodeRegistrationDelay!.pattern).toBe('^([0-9]+(s|m|h))+$');
});
