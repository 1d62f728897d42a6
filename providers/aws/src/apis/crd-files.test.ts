import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { crdFileName, generateCrd, renderCrdYaml, structuralProblems } from '@nodewright/core/apis';
import { expect, test } from 'vitest';
import { ec2NodeClassKind } from './kind.js';

// The committed CRD must equal what the schema generates. `UPDATE_CRDS=1` rewrites it instead
// (see `pnpm crds:generate`).
test('the EC2NodeClass CRD is up to date', () => {
  const url = new URL(`../../crds/${crdFileName(ec2NodeClassKind)}`, import.meta.url);
  const rendered = renderCrdYaml(ec2NodeClassKind);
  if (process.env.UPDATE_CRDS === '1') writeFileSync(url, rendered);
  const committed = existsSync(url) ? readFileSync(url, 'utf8') : '';
  expect(committed === rendered, 'CRDs are stale: run `pnpm crds:generate`').toBe(true);
});

test('the EC2NodeClass CRD is structural and named as upstream', () => {
  const crd = generateCrd(ec2NodeClassKind);
  expect(crdFileName(ec2NodeClassKind)).toBe('karpenter.k8s.aws_ec2nodeclasses.yaml');
  expect(crd.metadata.name).toBe('ec2nodeclasses.karpenter.k8s.aws');
  expect(crd.spec.names).toEqual({
    kind: 'EC2NodeClass',
    listKind: 'EC2NodeClassList',
    plural: 'ec2nodeclasses',
    singular: 'ec2nodeclass',
    shortNames: ['ec2nc', 'ec2ncs'],
    categories: ['karpenter'],
  });
  const [version] = crd.spec.versions;
  expect(version?.additionalPrinterColumns?.map((c) => [c.name, c.priority ?? 0])).toEqual([
    ['Ready', 0],
    ['Age', 0],
    ['Role', 1],
  ]);
  expect(version?.subresources).toEqual({ status: {} });
  expect(structuralProblems(version!.schema.openAPIV3Schema)).toEqual([]);
  const spec = (
    version!.schema.openAPIV3Schema.properties as Record<
      string,
      Record<string, Record<string, Record<string, unknown>>>
    >
  ).spec!;
  expect(spec.properties!.metadataOptions!.default).toEqual({
    httpEndpoint: 'enabled',
    httpProtocolIPv6: 'disabled',
    httpPutResponseHopLimit: 1,
    httpTokens: 'required',
  });
  expect(spec.required).toEqual(['amiSelectorTerms', 'securityGroupSelectorTerms', 'subnetSelectorTerms']);
});
