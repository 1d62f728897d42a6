import { readdirSync, readFileSync } from 'node:fs';
import { type NodePool, nodePoolSchema, podSchema } from '@nodewright/core/apis';
import { instanceTypesFromCatalog } from '@nodewright/core/catalog';
import { decodeManifests } from '@nodewright/core/manifests';
import { solve } from '@nodewright/core/scheduling';
import { describe, expect, it } from 'vitest';
import { awsCatalog } from './catalog.js';
import { readAwsCatalogData } from './data.js';

const dir = new URL('../../../../examples/nodepools/aws/', import.meta.url);
const nodePools: { file: string; nodePool: NodePool }[] = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((file) =>
    decodeManifests(file, readFileSync(new URL(file, dir), 'utf8'))
      .manifests.filter((m) => m.kind === 'NodePool')
      .map((m) => ({ file, nodePool: nodePoolSchema.parse(m.object) })),
  );

/**
 * A pod only this NodePool takes: it selects the pool by name, tolerates its taints, and asks
 * for one of every extended resource the pool limits (the GPU pool's nvidia.com/gpu).
 */
function podFor(nodePool: NodePool) {
  const extended = Object.keys(nodePool.spec.limits ?? {}).filter((r) => r.includes('/'));
  return podSchema.parse({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `needs-${nodePool.metadata.name}`, namespace: 'default' },
    spec: {
      nodeSelector: { 'karpenter.sh/nodepool': nodePool.metadata.name },
      tolerations: (nodePool.spec.template.spec.taints ?? []).map((t) => ({
        key: t.key,
        operator: 'Exists',
        effect: t.effect,
      })),
      containers: [
        {
          name: 'app',
          resources: {
            requests: { cpu: '1', memory: '2Gi', ...Object.fromEntries(extended.map((r) => [r, '1'])) },
            ...(extended.length > 0 ? { limits: Object.fromEntries(extended.map((r) => [r, '1'])) } : {}),
          },
        },
      ],
    },
  });
}

describe('examples/nodepools/aws with --catalog aws', () => {
  const { instanceTypes } = instanceTypesFromCatalog(awsCatalog({ data: readAwsCatalogData() }));
  const all = nodePools.map((n) => n.nodePool);

  it('finds every example NodePool', () => {
    expect(nodePools.map((n) => `${n.file} ${n.nodePool.metadata.name}`)).toEqual([
      'arm64-batch.yaml arm64-batch',
      'general-purpose.yaml general-purpose',
      'gpu.yaml gpu',
    ]);
  });

  for (const { file, nodePool } of nodePools) {
    it(`${file}: a pod that needs NodePool ${nodePool.metadata.name} gets a NodeClaim from it`, () => {
      const result = solve({
        pods: [podFor(nodePool)],
        existing: [],
        daemonSets: [],
        nodePools: all,
        instanceTypes: new Map(all.map((n) => [n.metadata.name ?? '', instanceTypes])),
      });
      expect(result.unschedulable.map((u) => u.reason)).toEqual([]);
      expect(result.newClaims.map((c) => c.nodePool)).toEqual([nodePool.metadata.name]);
      expect(result.newClaims[0]?.instanceTypes.length).toBeGreaterThan(0);
      expect(result.newClaims[0]?.price).toBeGreaterThan(0);
    });
  }

  it('the GPU pool launches g5, g6, p4d or p5 types with NVIDIA GPUs', () => {
    const gpu = nodePools.find((n) => n.nodePool.metadata.name === 'gpu')!.nodePool;
    const result = solve({
      pods: [podFor(gpu)],
      existing: [],
      daemonSets: [],
      nodePools: [gpu],
      instanceTypes: new Map([['gpu', instanceTypes]]),
    });
    const types = result.newClaims[0]?.instanceTypes ?? [];
    const families = new Set(types.map((t) => t.name.split('.')[0]));
    expect([...families].sort()).toEqual(['g5', 'g6', 'p4d', 'p5']);
    // On-demand only: the cheapest is the smallest g6, at its us-east-1 list price.
    expect(types[0]?.name).toBe('g6.xlarge');
    expect(result.newClaims[0]?.price).toBe(0.8048);
  });
});
