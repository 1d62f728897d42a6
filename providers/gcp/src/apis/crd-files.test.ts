import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { crdFileName, generateCrd, renderCrdYaml, structuralProblems } from '@nodewright/core/apis';
import { expect, test } from 'vitest';
import { gceNodeClassKind } from './kind.js';
import { gceNodeClassRuleCases } from './rule-cases.js';

// The committed CRD must equal what the schema generates. `UPDATE_CRDS=1` rewrites it instead
// (see `pnpm crds:generate`).
test('the GCENodeClass CRD is up to date', () => {
  const url = new URL(`../../crds/${crdFileName(gceNodeClassKind)}`, import.meta.url);
  const rendered = renderCrdYaml(gceNodeClassKind);
  if (process.env.UPDATE_CRDS === '1') writeFileSync(url, rendered);
  const committed = existsSync(url) ? readFileSync(url, 'utf8') : '';
  expect(committed === rendered, 'CRDs are stale: run `pnpm crds:generate`').toBe(true);
});

test('the GCENodeClass CRD is structural and named for its group', () => {
  const crd = generateCrd(gceNodeClassKind);
  expect(crdFileName(gceNodeClassKind)).toBe('karpenter.k8s.gcp_gcenodeclasses.yaml');
  expect(crd.metadata.name).toBe('gcenodeclasses.karpenter.k8s.gcp');
  expect(crd.spec.names.kind).toBe('GCENodeClass');
  const [version] = crd.spec.versions;
  expect(version?.name).toBe('v1alpha1');
  expect(version?.subresources).toEqual({ status: {} });
  expect(structuralProblems(version!.schema.openAPIV3Schema)).toEqual([]);
  const spec = (version!.schema.openAPIV3Schema.properties as Record<string, Record<string, unknown>>).spec!;
  expect(spec.required).toEqual(['imageSelectorTerms']);
});

test('every CEL rule in the CRD has a rule case with its message', () => {
  const yaml = renderCrdYaml(gceNodeClassKind);
  const messages = [...yaml.matchAll(/^\s+message: (\S.*)$/gm)].map((m) => m[1]!.replace(/^['"]|['"]$/g, ''));
  const cased = new Set(gceNodeClassRuleCases.map((c) => c.message));
  expect(messages.length).toBeGreaterThan(10);
  expect(messages.filter((m) => !cased.has(m.replace(/''/g, "'")))).toEqual([]);
});
