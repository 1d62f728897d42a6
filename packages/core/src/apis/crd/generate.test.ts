import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import type { KindDefinition } from '../kind.js';
import { nodeClaimKind, nodePoolKind } from '../v1/kinds.js';
import { crdFileName, generateCrd } from './generate.js';
import { renderCrdYaml } from './render.js';
import type { SchemaNode } from './structural.js';

const schemaOf = (def: KindDefinition) => generateCrd(def).spec.versions[0]!.schema.openAPIV3Schema;
const at = (node: SchemaNode, ...path: string[]): SchemaNode =>
  path.reduce(
    (n, p) =>
      p === '[]'
        ? (n.items as SchemaNode)
        : p === '[*]'
          ? (n.additionalProperties as SchemaNode)
          : (n.properties as Record<string, SchemaNode>)[p]!,
    node,
  );

describe('generateCrd', () => {
  test('names, scope, subresources and columns come from the kind', () => {
    const crd = generateCrd(nodePoolKind);
    expect(crd.metadata.name).toBe('nodepools.karpenter.sh');
    expect(crd.spec.names).toEqual({
      kind: 'NodePool',
      listKind: 'NodePoolList',
      plural: 'nodepools',
      singular: 'nodepool',
      categories: ['karpenter'],
    });
    expect(crd.spec.scope).toBe('Cluster');
    const [version] = crd.spec.versions;
    expect(version?.subresources).toEqual({
      status: {},
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.nodes' },
    });
    expect(version?.additionalPrinterColumns?.map((c) => c.name)).toEqual([
      'NodeClass',
      'Nodes',
      'Ready',
      'Age',
      'Weight',
      'CPU',
      'Memory',
    ]);
    expect(generateCrd(nodeClaimKind).spec.versions[0]?.subresources).toEqual({ status: {} });
  });

  test('the root allows only what Kubernetes allows there', () => {
    const root = schemaOf(nodePoolKind);
    expect(root.required).toEqual(['spec']);
    expect(at(root, 'metadata')).toEqual({ type: 'object' });
    expect(at(root, 'apiVersion').type).toBe('string');
    expect(at(root, 'kind').enum).toBeUndefined();
  });

  test("defaults are upstream's", () => {
    const spec = at(schemaOf(nodePoolKind), 'spec');
    expect(at(spec, 'disruption').default).toEqual({ consolidateAfter: '0s' });
    expect(at(spec, 'disruption', 'budgets').default).toEqual([{ nodes: '10%' }]);
    expect(at(spec, 'disruption', 'consolidationPolicy').default).toBe('WhenEmptyOrUnderutilized');
    expect(at(spec, 'disruption', 'consolidateAfter').default).toBe('0s');
    expect(at(spec, 'template', 'spec', 'expireAfter').default).toBe('720h');
    expect(at(schemaOf(nodePoolKind), 'status', 'nodes').default).toBe(0);
  });

  test('quantities are int-or-string with the quantity pattern', () => {
    const limit = at(schemaOf(nodePoolKind), 'spec', 'limits', '[*]');
    expect(limit['x-kubernetes-int-or-string']).toBe(true);
    expect(limit.type).toBeUndefined();
    expect(limit.pattern).toMatch(/^\^\(\\\+\|-\)\?/);
    expect(
      at(schemaOf(nodeClaimKind), 'spec', 'resources', 'requests', '[*]')['x-kubernetes-int-or-string'],
    ).toBe(true);
  });

  test('CEL rules, list types and bounds are carried', () => {
    const requirements = at(schemaOf(nodePoolKind), 'spec', 'template', 'spec', 'requirements');
    expect(requirements.maxItems).toBe(100);
    expect(requirements['x-kubernetes-list-type']).toBe('atomic');
    const rules = (at(requirements, '[]')['x-kubernetes-validations'] as { message: string }[]).map(
      (r) => r.message,
    );
    expect(rules).toContain('operator In needs at least one value');
    expect(at(requirements, '[]', 'values').maxItems).toBe(1000);
    const ref = at(schemaOf(nodePoolKind), 'spec', 'template', 'spec', 'nodeClassRef');
    expect(ref['x-kubernetes-validations']).toEqual([
      { rule: 'self.group == oldSelf.group', message: 'nodeClassRef.group is immutable' },
      { rule: 'self.kind == oldSelf.kind', message: 'nodeClassRef.kind is immutable' },
    ]);
    expect(at(schemaOf(nodeClaimKind), 'spec')['x-kubernetes-validations']).toContainEqual({
      rule: 'self == oldSelf',
      message: 'spec is immutable',
    });
    const conditions = at(schemaOf(nodeClaimKind), 'status', 'conditions');
    expect(conditions['x-kubernetes-list-type']).toBe('map');
    expect(conditions['x-kubernetes-list-map-keys']).toEqual(['type']);
  });

  test("date-times keep their format but not zod's regex", () => {
    const time = at(schemaOf(nodeClaimKind), 'status', 'lastPodEventTime');
    expect(time).toEqual({ type: 'string', format: 'date-time', description: expect.any(String) });
  });

  test('a kind without a CRD, or with a mismatched apiVersion, is refused', () => {
    const plain: KindDefinition = { apiVersion: 'v1', kind: 'Pod', namespaced: true, schema: z.object({}) };
    expect(() => generateCrd(plain)).toThrow(/no CRD description/);
    expect(() => crdFileName(plain)).toThrow(/no CRD description/);
    expect(() => generateCrd({ ...nodePoolKind, apiVersion: 'karpenter.sh/v2' })).toThrow(/does not match/);
  });
});

test("file names follow Karpenter's", () => {
  expect(crdFileName(nodePoolKind)).toBe('karpenter.sh_nodepools.yaml');
  expect(crdFileName(nodeClaimKind)).toBe('karpenter.sh_nodeclaims.yaml');
});

test('the YAML parses back to the generated object', () => {
  const text = renderCrdYaml(nodePoolKind);
  expect(text.startsWith('# Generated')).toBe(true);
  expect(parse(text)).toEqual(JSON.parse(JSON.stringify(generateCrd(nodePoolKind))));
});
