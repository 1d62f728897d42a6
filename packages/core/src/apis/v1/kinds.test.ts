import { expect, test } from 'vitest';
import { KindRegistry } from '../kind.js';
import { exampleNodeClaim, exampleNodePool } from './examples.js';
import { coreCrdKinds, nodeClaimKind, nodePoolKind } from './kinds.js';

test('the core kinds register and parse their examples', () => {
  const registry = new KindRegistry(coreCrdKinds);
  expect(registry.get('karpenter.sh/v1', 'NodePool')).toBe(nodePoolKind);
  expect(registry.get('karpenter.sh/v1', 'NodeClaim')).toBe(nodeClaimKind);
  expect(registry.withCrds()).toHaveLength(2);
  expect(nodePoolKind.schema.safeParse(exampleNodePool()).success).toBe(true);
  expect(nodeClaimKind.schema.safeParse(exampleNodeClaim()).success).toBe(true);
});

test('both kinds are cluster-scoped karpenter resources with a status subresource', () => {
  for (const kind of coreCrdKinds) {
    expect(kind.namespaced).toBe(false);
    expect(kind.crd?.categories).toEqual(['karpenter']);
    expect(kind.crd?.subresources?.status).toBe(true);
  }
  expect(nodePoolKind.crd?.subresources?.scale).toEqual({
    specReplicasPath: '.spec.replicas',
    statusReplicasPath: '.status.nodes',
  });
  expect(nodeClaimKind.crd?.subresources?.scale).toBeUndefined();
});

test('printer columns follow upstream', () => {
  const columns = (kind: typeof nodePoolKind | typeof nodeClaimKind, wide: boolean) =>
    kind.crd?.printerColumns?.filter((c) => (c.priority === 1) === wide).map((c) => c.name);
  expect(columns(nodePoolKind, false)).toEqual(['NodeClass', 'Nodes', 'Ready', 'Age']);
  expect(columns(nodePoolKind, true)).toEqual(['Weight', 'CPU', 'Memory']);
  expect(columns(nodeClaimKind, false)).toEqual(['Type', 'Capacity', 'Zone', 'Node', 'Ready', 'Age']);
  expect(columns(nodeClaimKind, true)).toEqual(['ImageID', 'ID', 'NodePool', 'NodeClass', 'Drifted']);
});
